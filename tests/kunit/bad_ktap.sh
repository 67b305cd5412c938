#!/bin/sh
# A malformed KTAP stream for ktap_check.sh to reject: case 2 comes before case 1.
cat <<'KTAP'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: kunit_selftest
    1..2
    ok 2 test_every_check_passes
    ok 1 test_each_case_has_a_runtime
ok 1 kunit_selftest
KTAP
