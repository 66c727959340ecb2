#!/usr/bin/env python3
"""Writes the knowledge benchmark's corpus: FILES Markdown files of about 10 KB each (headings,
paragraphs, lists, code blocks) from a fixed seed, so every run indexes the same bytes.

    knowledgecorpus.py DIRECTORY [FILES]
"""
import os
import random
import sys


def main():
    directory = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    random.seed(26)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(random.choice(alphabet) for _ in range(random.randint(3, 10))) for _ in range(30000)]

    def word():
        # Cubing a uniform number favours the first words: a Zipf-like spread, as prose has.
        return words[int(random.random() ** 3 * len(words))]

    def sentence():
        text = " ".join(word() for _ in range(random.randint(6, 18)))
        return text[0].upper() + text[1:] + "."

    for number in range(files):
        sub = os.path.join(directory, "part%02d" % (number % 20))
        os.makedirs(sub, exist_ok=True)
        parts = ["# " + " ".join(word() for _ in range(4)).title(), ""]
        size = 0
        while size < 10000:
            kind = random.random()
            if kind < 0.15:
                block = "## " + " ".join(word() for _ in range(3)).title()
            elif kind < 0.25:
                block = "\n".join("- " + sentence() for _ in range(random.randint(2, 6)))
            elif kind < 0.32:
                block = "```\n" + "\n".join("%s = %s(%d)" % (word(), word(), i) for i in range(random.randint(3, 12))) + "\n```"
            else:
                block = " ".join(sentence() for _ in range(random.randint(2, 7)))
            parts.append(block)
            parts.append("")
            size += len(block) + 1
        with open(os.path.join(sub, "note%04d.md" % number), "w") as out:
            out.write("\n".join(parts))


if __name__ == "__main__":
    main()
