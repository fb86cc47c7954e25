package io.dispatchpolicy.domain.gate;

import io.dispatchpolicy.spi.Limit;
import io.dispatchpolicy.spi.PolicyDeclarationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Named limits' arithmetic (ADR 0049): keys in lock order, the least any side allows, the first refusal's name. */
class SharedLimitsTest {

    private static final Limit CRM = Limit.named("crm").perKey("customer").concurrency(5).totalConcurrency(8).build();
    private static final Limit MAIL = Limit.named("mail").totalThrottle(2, Duration.ofSeconds(1)).build();
    private static final Map<String, Object> ACME = Map.of("customer", "acme");

    private static SharedLimits.Key key(String limit, String key) {
        return new SharedLimits.Key(limit, key);
    }

    @Test
    void aPartitionPassesEachLimitsKeyAndItsTotalInLockOrder() {
        assertThat(SharedLimits.keys(List.of(MAIL, CRM), ACME)).containsExactly(key("crm", ""), key("crm", "acme"), key("mail", ""));
        assertThat(key("crm", "acme").encoded()).isEqualTo("crm/acme");
        assertThat(key("crm", "").encoded()).isEqualTo("crm");
        assertThatThrownBy(() -> SharedLimits.keys(List.of(CRM), Map.of("tenant", "x")))
                .hasMessage("limit 'crm' is per 'customer', which the context lacks");
    }

    @Test
    void theLeastAnySideLeavesIsAllowedAndTheFirstSideShortOfItNamesItsLimit() {
        Map<SharedLimits.Key, SharedLimits.Held> held = Map.of(key("crm", "acme"), new SharedLimits.Held(null, 2),
                key("crm", ""), new SharedLimits.Held(null, 7));
        assertThat(SharedLimits.check(List.of(CRM), ACME, held, 0, 1).allowed()).as("8 - 7 in all, though acme has 3 left").isEqualTo(1);
        GateCheck full = SharedLimits.check(List.of(CRM), ACME, held, 0, 2);
        assertThat(full.reason()).isEqualTo("limit_full:crm");
        assertThat(full.retryAfter()).isEqualTo(SharedLimits.FULL_BACKOFF);
        held = Map.of(key("crm", "acme"), new SharedLimits.Held(null, 5), key("crm", ""), new SharedLimits.Held(null, 5));
        assertThat(SharedLimits.check(List.of(CRM, MAIL), ACME, held, 0, 1).reason()).isEqualTo("limit_full:crm");
    }

    @Test
    void aBucketStartsFullIsChargedTheSlotsAdmittedAndSaysWhenItHasEnough() {
        Map<SharedLimits.Key, SharedLimits.Held> fresh = Map.of();
        assertThat(SharedLimits.check(List.of(MAIL), ACME, fresh, 1_000, 1).allowed()).isEqualTo(2);
        Map<SharedLimits.Key, TokenBucket.State> charged = SharedLimits.charged(List.of(MAIL, CRM), ACME, fresh, 1_000, 2);
        assertThat(charged).as("only rated keys have buckets").containsOnlyKeys(key("mail", ""));
        assertThat(charged.get(key("mail", "")).tokens()).isZero();
        GateCheck empty = SharedLimits.check(List.of(MAIL), ACME, Map.of(key("mail", ""), new SharedLimits.Held(charged.get(key("mail", "")), 0)),
                1_250, 1);
        assertThat(empty.reason()).isEqualTo("limit_throttled:mail");
        assertThat(empty.retryAfter()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void partitionsAdmittedTogetherAreCheckedEachOnWhatTheOnesBeforeItTook() {
        Map<String, Object> globex = Map.of("customer", "globex");
        Map<SharedLimits.Key, SharedLimits.Held> held = Map.of(key("crm", ""), new SharedLimits.Held(null, 3));
        Map<SharedLimits.Key, SharedLimits.Held> afterAcme = new java.util.HashMap<>(held);
        afterAcme.putAll(SharedLimits.after(List.of(CRM, MAIL), ACME, held, 1_000, 2));
        assertThat(afterAcme.get(key("crm", "acme")).inFlight()).isEqualTo(2);
        assertThat(afterAcme.get(key("crm", "")).inFlight()).isEqualTo(5);
        assertThat(afterAcme.get(key("mail", "")).bucket().tokens()).as("the bucket charged the 2 slots").isZero();
        assertThat(SharedLimits.check(List.of(CRM), globex, afterAcme, 1_000, 1).allowed()).as("8 - 5 in all").isEqualTo(3);
        assertThat(SharedLimits.check(List.of(CRM, MAIL), globex, afterAcme, 1_000, 1).reason()).isEqualTo("limit_throttled:mail");
    }

    @Test
    void aGroupReservesForEachPartitionWhatItMayTakeAndFindsACostlyJobThatPassesALimitTogether() {
        Map<String, Object> globex = Map.of("customer", "globex");
        Map<String, Object> initech = Map.of("customer", "initech");
        GroupLimits group = new GroupLimits(List.of(CRM), Map.of(key("crm", ""), new SharedLimits.Held(null, 1)));
        assertThat(group.reserve(ACME, 0, 4).check().allowed()).as("5 per customer, 7 left in all").isEqualTo(5);
        GroupLimits.Reservation second = group.reserve(globex, 0, 4);
        assertThat(second.check().allowed()).as("acme reserved 4: 3 left in all").isEqualTo(3);
        assertThat(second.forJobOf(3).denied()).isFalse();
        assertThat(second.forJobOf(4).reason()).as("a job of 4 after acme's").isEqualTo("limit_full:crm");
        assertThat(group.reserve(initech, 0, 4).check().reason()).as("globex reserved the last 3").isEqualTo("limit_full:crm");

        assertThat(group.passedBy(List.of(new GroupLimits.Use(ACME, 0, 4), new GroupLimits.Use(globex, 0, 3),
                new GroupLimits.Use(initech, 0, 0)))).isEmpty();
        assertThat(group.passedBy(List.of(new GroupLimits.Use(ACME, 0, 5), new GroupLimits.Use(globex, 0, 3))))
                .as("a costly job of 5 beyond acme's reservation of 4").contains("limit_full:crm");

        GroupLimits rated = new GroupLimits(List.of(MAIL), Map.of());
        assertThat(rated.charge(ACME, 1_000, 1).get(key("mail", "")).tokens()).isEqualTo(1);
        assertThat(rated.charge(globex, 1_000, 1).get(key("mail", "")).tokens()).as("charged after acme's").isZero();
    }

    @Test
    void aLimitIsCheckedWhenDeclared() {
        assertThatThrownBy(() -> Limit.named("x").concurrency(1).build()).isInstanceOf(PolicyDeclarationException.class)
                .hasMessage("Limit 'x': a per-key concurrency or rate needs perKey(contextValue)");
        assertThatThrownBy(() -> Limit.named("x").build()).hasMessage("Limit 'x': limits nothing: give a concurrency or a rate, per key or in total");
        assertThatThrownBy(() -> Limit.named("x").totalConcurrency(0).build()).hasMessage("Limit 'x': total concurrency must be >= 1, was 0");
        assertThatThrownBy(() -> Limit.named("x").perKey("c").build())
                .hasMessage("Limit 'x': perKey without a per-key concurrency or rate limits nothing");
        assertThatThrownBy(() -> Limit.named("x").totalThrottle(1, Duration.ZERO).build())
                .hasMessage("Limit 'x': total rate's period must be positive, was PT0S");
        assertThatThrownBy(() -> Limit.named("no spaces").totalConcurrency(1).build()).hasMessageContaining("Limit name 'no spaces' is invalid");
    }
}
