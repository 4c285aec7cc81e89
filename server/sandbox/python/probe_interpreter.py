"""Run once per interpreter by sandbox-interpreter.ts, on the host, with the host's own python3
(trusted code): what the sandbox must bind for this interpreter to run. Prints one JSON object."""

import json
import os
import sys

dynload = [entry for entry in sys.path if entry.endswith("lib-dynload") and os.path.isdir(entry)]
extensions = []
for directory in dynload:
    for name in sorted(os.listdir(directory)):
        if name.endswith(".so"):
            extensions.append(os.path.join(directory, name))
print(
    json.dumps(
        {
            "executable": os.path.realpath(sys.executable),
            "version": list(sys.version_info[:2]),
            "path": [entry for entry in sys.path if entry and os.path.exists(entry)],
            "extensions": extensions,
        }
    )
)
