/**
 * Gate and fairness arithmetic, as pure functions of a gate's parameters, its stored state, the
 * partition's in-flight count and the time: token-bucket throttle, fixed concurrency cap, adaptive
 * (AIMD) concurrency cap, and the EWMA of recent admits that orders partitions within a tick. No
 * database or container types: every formula is unit-tested here.
 */
package io.dispatchpolicy.domain.gate;
