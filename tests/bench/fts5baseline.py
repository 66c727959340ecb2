#!/usr/bin/env python3
"""The knowledge benchmark's baseline: what Python's sqlite3 module takes to read the same Markdown files
and insert them into FTS5 as ~1,000-character chunks (cut at paragraphs), in WAL mode with one
transaction per file, as Loopscope's indexer writes. Loopscope's indexing is measured against it in
the same run (knowledge-bench.sh).

    fts5baseline.py DATABASE DIRECTORY
"""
import os
import sqlite3
import sys


def chunks(text):
    """~1,000-character chunks at paragraph breaks, each with its first line."""
    current, start, line = [], 1, 1
    size = 0
    for paragraph in text.split("\n\n"):
        if size + len(paragraph) > 1000 and current:
            yield start, "\n\n".join(current)
            current, size, start = [], 0, line
        current.append(paragraph)
        size += len(paragraph) + 2
        line += paragraph.count("\n") + 2
    if current:
        yield start, "\n\n".join(current)


def main():
    database, directory = sys.argv[1], sys.argv[2]
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT UNIQUE)")
    connection.execute("CREATE TABLE IF NOT EXISTS chunks(id INTEGER PRIMARY KEY, file_id INTEGER, "
                       "start_line INTEGER, text TEXT)")
    connection.execute("CREATE VIRTUAL TABLE IF NOT EXISTS chunk_text USING fts5(text, content='chunks', "
                       "content_rowid='id')")
    count = 0
    for root, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as source:
                text = source.read()
            connection.execute("BEGIN")
            file_id = connection.execute("INSERT INTO files(path) VALUES (?)", (path,)).lastrowid
            for start, chunk in chunks(text):
                rowid = connection.execute("INSERT INTO chunks(file_id, start_line, text) VALUES (?, ?, ?)",
                                           (file_id, start, chunk)).lastrowid
                connection.execute("INSERT INTO chunk_text(rowid, text) VALUES (?, ?)", (rowid, chunk))
                count += 1
            connection.execute("COMMIT")
    print("%d chunks" % count, file=sys.stderr)


if __name__ == "__main__":
    main()
