#!/usr/bin/env python3
"""Writes a C header holding a text file as an array of string literals
(each under the 4095 characters C compilers must support), NULL-ended:
  embed_text.py INPUT OUTPUT NAME"""

import sys


def literal(chunk):
    out = []
    for line in chunk.splitlines(keepends=True):
        text = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        out.append(f'    "{text}"')
    return "\n".join(out)


def main():
    src, dst, name = sys.argv[1:4]
    text = open(src, encoding="utf-8").read()
    chunks, current = [], ""
    for line in text.splitlines(keepends=True):
        if len(current) + len(line) > 3000:
            chunks.append(current)
            current = ""
        current += line
    chunks.append(current)
    body = ",\n".join(literal(c) for c in chunks if c)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(f"/* Generated from {src.split('/')[-1]} by embed_text.py. */\n")
        f.write(f"static const char *const {name}[] = {{\n{body},\n    0}};\n")


if __name__ == "__main__":
    main()
