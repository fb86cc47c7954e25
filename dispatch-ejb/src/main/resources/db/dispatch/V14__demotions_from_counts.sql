-- Demoted tenants are read from the submission counts themselves (ADR 0011): the console computes who is
-- over a rule and until when, so a demoted submission writes nothing beyond its count.
DROP TABLE dispatch.demotions;
