#!/usr/bin/env python3
"""json_lines.py FILE: parses every line of a JSON Lines file with Python's json module (the RESO JSON parse floor
of bench/run and bench/formats) and prints the record count."""
import json
import sys

n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
        n += 1
print(n, "records")
