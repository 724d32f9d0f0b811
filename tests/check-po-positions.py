#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every argument of a translated message lands beside its own words.

A translation that reorders "%s" without positions swaps numbers: in
zh_CN, "Memory %s is %s points above SM %s" once printed the gap where SM
belongs.  The method, for every entry of PO_FILE whose msgid has two or
more printf conversions (%% is not one):

1. Both strings are "formatted" with sentinels: the k-th conversion of the
   msgid becomes [k]; each conversion of the msgstr becomes [n] for
   "%n$…", or [k] by its place when the msgstr uses no positions, the way
   printf() reads it.  A msgstr may not mix the two forms.
2. Each argument index 1..N appears exactly once in the msgstr, with the
   same kind of conversion (integer, floating, string) as in the msgid.
3. LABELS pairs the English words that name an argument with their
   Chinese words (one capture group each, the sentinel's index): every
   Chinese label that holds a sentinel in the msgstr must hold the index
   the English label holds in the msgid.  "SM [1] 比内存 [2]" fails
   against "SM [1] is [2] points above Memory [3]", since 内存 (Memory)
   holds [2] where Memory holds [3].
4. The sentence families the checks rest on (SM, Memory, points) are
   counted: if no msgstr is matched by them, the label table no longer
   fits the translation and the test fails instead of passing idly.

Usage: check-po-positions.py PO_FILE
"""

import re
import sys

CONVERSION = re.compile(
    r"%(?:(\d+)\$)?[-+ #0']*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
    r"(?:hh|h|ll|l|L|z|j|t)?([diouxXeEfFgGcsp%])"
)

KIND = {c: "int" for c in "diouxXc"}
KIND.update({c: "float" for c in "eEfFgG"})
KIND.update({"s": "string", "p": "pointer"})

# (English with the sentinel's index as the group, Chinese likewise).
LABELS = [
    (r"\bSM \[(\d+)\]", r"SM \[(\d+)\]"),
    (r"\bMemory \[(\d+)\]", r"内存 ?\[(\d+)\]"),
    (r"\bDRAM \[(\d+)\]", r"DRAM \[(\d+)\]"),
    (r"\[(\d+)\] points\b", r"\[(\d+)\] 个百分点"),
    (r"\bL1 hit \[(\d+)\]", r"L1 命中率? ?\[(\d+)\]"),
    (r"\bL2 hit \[(\d+)\]", r"L2 命中率? ?\[(\d+)\]"),
    (r"\[(\d+)\] bank conflicts", r"\[(\d+)\] 次存储体冲突"),
    (r"\[(\d+)\] shared-memory wavefronts", r"\[(\d+)\] 个共享内存波前"),
    (r"raised on \[(\d+)\] of", r"中有 \[(\d+)\] 个出现"),
    (r"of \[(\d+)\] ranks", r"\[(\d+)\] 个 rank 中"),
    (r"\[(\d+)\] waves per SM", r"波数(?:为)? ?\[(\d+)\]"),
    (r"\[(\d+)\] static", r"静态 \[(\d+)\]"),
    (r"\[(\d+)\] dynamic", r"动态 \[(\d+)\]"),
    (r"\bfrom \[(\d+)\] to", r"从 \[(\d+)\] 到"),
    (r"\bto \[(\d+)\] \(", r"到 \[(\d+)\]（"),
    (r"\[(\d+)\] before\b", r"前 \[(\d+)\]"),
    (r"\[(\d+)\] after\b", r"后 \[(\d+)\]"),
    (r"\[(\d+)\] kernels\b", r"\[(\d+)\] 个内核"),
    (r"\[(\d+)\] launches\b", r"\[(\d+)\] 次启动"),
    (r"\[(\d+)\] of the GPU time", r"占 ?GPU 时间的 \[(\d+)\]"),
]

# The families whose swap issue 31 reported; each must be matched somewhere.
REQUIRED = [r"\bSM \[(\d+)\]", r"\bMemory \[(\d+)\]", r"\[(\d+)\] points\b"]


def unquote(text):
    return bytes(text, "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8")


def parse(path):
    """Entries as dicts of msgctxt, msgid, msgid_plural, msgstr[n]."""
    entries, current, key = [], {}, None

    def flush():
        if "msgid" in current:
            entries.append(dict(current))
        current.clear()

    with open(path, encoding="utf-8") as po:
        for number, line in enumerate(po, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                if key is not None and not line.startswith("#"):
                    flush()
                    key = None
                continue
            match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if match:
                if match.group(1) == "msgctxt" or (match.group(1) == "msgid" and "msgid" in current):
                    flush()
                key = match.group(1)
                current[key] = unquote(match.group(2))
                current.setdefault("line", number)
                continue
            match = re.match(r'^"(.*)"$', line)
            if match and key is not None:
                current[key] += unquote(match.group(1))
    flush()
    return entries


def conversions(text):
    return [m for m in CONVERSION.finditer(text) if m.group(2) != "%"]


def with_sentinels(text, positional):
    """TEXT with each conversion replaced by [index]; the indices and kinds in order."""
    out, last, found = [], 0, []
    for place, match in enumerate(conversions(text), 1):
        index = int(match.group(1)) if positional else place
        out.append(text[last : match.start()])
        out.append("[%d]" % index)
        found.append((index, KIND[match.group(2)]))
        last = match.end()
    out.append(text[last:])
    return "".join(out), found


def check_entry(entry, msgstr_key, matched):
    problems = []
    msgid = entry["msgid"] if msgstr_key in ("msgstr", "msgstr[0]") else entry.get("msgid_plural", entry["msgid"])
    msgstr = entry[msgstr_key]
    if not msgstr:
        return problems
    id_text, id_args = with_sentinels(msgid, False)
    str_convs = conversions(msgstr)
    positions = {bool(m.group(1)) for m in str_convs}
    if len(positions) > 1:
        return ["mixes positional and plain conversions"]
    str_text, str_args = with_sentinels(msgstr, positions == {True})

    kinds = dict(id_args)
    indices = sorted(index for index, _ in str_args)
    if indices != sorted(kinds):
        problems.append("arguments %s, the msgid has %s" % (indices, sorted(kinds)))
    for index, kind in str_args:
        if kinds.get(index) not in (None, kind):
            problems.append("argument %d is a %s in the msgid, a %s here" % (index, kinds[index], kind))

    for english, chinese in LABELS:
        wanted = set(re.findall(english, id_text))
        got = re.findall(chinese, str_text)
        if wanted and got:
            matched[english] = matched.get(english, 0) + 1
        for index in got:
            if wanted and index not in wanted:
                problems.append(
                    "“%s” holds argument %s, the msgid's “%s” holds %s: %s"
                    % (chinese, index, english, "/".join(sorted(wanted)), str_text)
                )
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    status, checked, matched = 0, 0, {}
    for entry in parse(path):
        if len(conversions(entry["msgid"])) < 2:
            continue
        for key in [k for k in entry if k.startswith("msgstr")]:
            checked += 1
            for problem in check_entry(entry, key, matched):
                print("%s:%d: %s: %s" % (path, entry["line"], entry["msgid"], problem))
                status = 1
    for english in REQUIRED:
        if not matched.get(english):
            print("%s: the label %s matched no msgstr: the table no longer fits" % (path, english))
            status = 1
    print("%s: %d messages with two or more arguments checked" % (path, checked))
    return status


if __name__ == "__main__":
    sys.exit(main())
