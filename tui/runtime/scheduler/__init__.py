"""Scheduled checks and scheduled assistant tasks: read-only runs on a cron or interval in Beijing time, with a
run log and notifications (issue 10; seed 000: scheduled runs may only use read tools, ask counts as deny)."""
