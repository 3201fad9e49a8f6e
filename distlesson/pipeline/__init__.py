"""Pipeline parallelism: schedules as data (GPipe, 1F1B, interleaved, ZB-H1), a simulator that
runs them operation by operation, and the closed forms they are checked against."""
