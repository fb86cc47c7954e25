package io.dispatchpolicy.infrastructure.persistence;

import io.dispatchpolicy.application.monitoring.PartitionQuery;
import io.dispatchpolicy.domain.model.Partition;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Predicate;
import jakarta.persistence.criteria.Root;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Pages through partitions for the console with JPA criteria: the sort field is checked against a
 * fixed list and every filter is a bound parameter, so no user text reaches the SQL.
 */
@ApplicationScoped
public class PartitionBrowser {

    @PersistenceContext(unitName = "dispatch")
    EntityManager em;

    public List<Partition> page(PartitionQuery q) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Partition> query = cb.createQuery(Partition.class);
        Root<Partition> p = query.from(Partition.class);
        query.where(filters(cb, p, q));
        String field = PartitionQuery.SORTABLE.contains(q.sortField()) ? q.sortField() : "pendingCount";
        boolean ascending = PartitionQuery.SORTABLE.contains(q.sortField()) && q.ascending();
        query.orderBy(ascending ? cb.asc(p.get(field)) : cb.desc(p.get(field)), cb.asc(p.get("id")));
        return em.createQuery(query).setFirstResult(Math.max(0, q.first())).setMaxResults(Math.max(1, q.pageSize()))
                .getResultList();
    }

    public long count(PartitionQuery q) {
        CriteriaBuilder cb = em.getCriteriaBuilder();
        CriteriaQuery<Long> query = cb.createQuery(Long.class);
        Root<Partition> p = query.from(Partition.class);
        query.select(cb.count(p)).where(filters(cb, p, q));
        return em.createQuery(query).getSingleResult();
    }

    public Partition find(long id) {
        return em.find(Partition.class, id);
    }

    private static Predicate[] filters(CriteriaBuilder cb, Root<Partition> p, PartitionQuery q) {
        List<Predicate> where = new ArrayList<>();
        if (q.policy() != null && !q.policy().isBlank()) {
            where.add(cb.equal(p.get("policyName"), q.policy()));
        }
        if (q.keyContains() != null && !q.keyContains().isBlank()) {
            where.add(cb.like(cb.lower(p.get("partitionKey")), "%" + escapeLike(q.keyContains().toLowerCase(Locale.ROOT)) + "%", '\\'));
        }
        return where.toArray(new Predicate[0]);
    }

    /** Makes {@code %}, {@code _} and {@code \} in user text match themselves. */
    public static String escapeLike(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
