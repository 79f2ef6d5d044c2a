"""Runs one SQL query with DuckDB over the tables of `ysess export --parquet`.

    query.py OUT SQL

The views `entries`, `tree` and `sessions` read OUT's folders as the README
shows (Hive partitions: `agent`, and `day` for entries). Prints the rows as
one JSON array of objects, values that JSON has no type for as text.
"""

import json
import os
import sys

import duckdb


def main():
    out, sql = sys.argv[1], sys.argv[2]
    con = duckdb.connect()
    tables = {
        "entries": "entries/*/*/*.parquet",
        "tree": "tree/*/*.parquet",
        "sessions": "sessions/*/*.parquet",
    }
    for name, glob in tables.items():
        path = os.path.join(out, glob).replace("'", "''")
        con.sql(
            f"CREATE VIEW {name} AS SELECT * FROM "
            f"read_parquet('{path}', hive_partitioning = true)"
        )
    rel = con.sql(sql)
    rows = [dict(zip(rel.columns, row)) for row in rel.fetchall()]
    json.dump(rows, sys.stdout, default=str)


main()
