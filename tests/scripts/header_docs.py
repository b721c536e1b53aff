#!/usr/bin/env python3
"""Every public function of the installed headers documents itself: a /** */
comment right before each GEMMKIT_API declaration with a @brief, what it
blocks on (@par Blocks), its thread-safety (@par Threads), its limits
(@par Limits) and what it returns (@retval or @return).
Usage: header_docs.py SOURCE_DIR"""
import pathlib
import re
import sys

REQUIRED = ("@brief", "@par Blocks", "@par Threads", "@par Limits")
# A doc comment, then the declaration up to its function name.
DECLARATION = re.compile(r"(/\*\*(?:(?!\*/).)*\*/)?\s*^GEMMKIT_API\s[^;(]*?(\w+)\s*\(", re.S | re.M)


def main():
    include = pathlib.Path(sys.argv[1]) / "include"
    problems, functions = [], 0
    for header in sorted(include.glob("*.h")):
        for match in DECLARATION.finditer(header.read_text()):
            comment, name = match.group(1) or "", match.group(2)
            functions += 1
            missing = [tag for tag in REQUIRED if tag not in comment]
            if "@retval" not in comment and "@return" not in comment:
                missing.append("@retval/@return")
            if missing:
                problems.append(f"{header.name}: {name}: missing {', '.join(missing)}")
    print("\n".join(problems))
    print(f"{functions} public functions, {len(problems)} undocumented")
    return 1 if problems or functions == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
