package io.dispatchpolicy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Strongly connected components of a package graph (Tarjan's algorithm): a component of two or more packages is a cycle. */
final class PackageCycles {

    private final Map<String, Set<String>> graph;
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> low = new HashMap<>();
    private final Deque<String> stack = new ArrayDeque<>();
    private final Set<String> onStack = new TreeSet<>();
    private final List<Set<String>> components = new ArrayList<>();

    private PackageCycles(Map<String, Set<String>> graph) {
        this.graph = graph;
    }

    static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        PackageCycles t = new PackageCycles(graph);
        graph.keySet().forEach(v -> {
            if (!t.index.containsKey(v)) {
                t.visit(v);
            }
        });
        return t.components;
    }

    private void visit(String v) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                visit(w);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            components.add(component);
        }
    }
}
