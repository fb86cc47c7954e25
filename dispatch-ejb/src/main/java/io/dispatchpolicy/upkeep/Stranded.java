package io.dispatchpolicy.upkeep;

/**
 * An execution of an ungoverned job marked FAILED because its server is gone (ADR 0032).
 *
 * @param executionId its execution
 * @param nodeName    the server that created it
 * @param stepsFailed its steps and partitions marked FAILED with it
 */
public record Stranded(long executionId, String nodeName, long stepsFailed) {
}
