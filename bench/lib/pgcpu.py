#!/usr/bin/env python3
"""pgcpu.py DATADIR: CPU seconds (user + system) used so far by the PostgreSQL cluster of DATADIR.

The postmaster's own time, its live children's (backends, checkpointer, WAL writer, ...) and its reaped children's
(cutime + cstime: backends that have exited). bench/run takes the difference around each timed step, so the report
can show how much of a step's wall time the server spent computing.
"""
import os
import sys


def cpu(pid: str, children: bool = False) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is field 3 (state); utime=14, stime=15, cutime=16, cstime=17 (1-based in proc(5))
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks


def main() -> int:
    with open(os.path.join(sys.argv[1], "postmaster.pid")) as f:
        master = f.readline().strip()
    total = cpu(master, children=True)
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry == master:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = f.read().rsplit(")", 1)[1].split()[1]
            if ppid == master:
                total += cpu(entry)
        except (OSError, IndexError):
            continue
    print(f"{total / os.sysconf('SC_CLK_TCK'):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
