#!/usr/bin/env python3
"""Builds server/data/postcodes/<CC>.tsv, the postcode -> places tables the shop fills the
city from (issue #33 L24), for the countries of its sites.

Source: the GeoNames postal-code dump (CC BY 4.0, https://www.geonames.org), as bundled in
the PyPI wheel geotz 0.0.2b0 (the machines reach package registries only). Run it again to
refresh the tables:  python3 scripts/postcodes.py
Each line: code, a tab, the places of that code joined by '|'. CEDEX (business mail) codes
are left out: a member's home address never has one."""
import collections, csv, io, pathlib, subprocess, sys, tempfile, zipfile

WANT = {"FR", "DE", "ES", "IT", "AT", "BE", "LU", "NL"}
OUT = pathlib.Path(__file__).resolve().parent.parent / "server" / "data" / "postcodes"

def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q",
                        "geotz==0.0.2b0", "-d", tmp], check=True)
        wheel = next(pathlib.Path(tmp).glob("geotz-*.whl"))
        tables = {c: collections.defaultdict(list) for c in WANT}
        with zipfile.ZipFile(wheel) as z, z.open("geotz/data/geonames_all_countries_sorted.tsv") as f:
            for row in csv.reader(io.TextIOWrapper(f, "utf-8"), delimiter="\t", quoting=csv.QUOTE_NONE):
                cc, code, place = row[0], row[1].strip(), row[2].strip()
                if cc not in WANT or not code or not place or "CEDEX" in place.upper():
                    continue
                if cc == "LU":
                    code = code.removeprefix("L-")
                code = code.replace(" ", "")
                if place not in tables[cc][code]:
                    tables[cc][code].append(place)
    OUT.mkdir(parents=True, exist_ok=True)
    for cc, table in sorted(tables.items()):
        lines = [f"{code}\t{'|'.join(places)}" for code, places in sorted(table.items())]
        (OUT / f"{cc.lower()}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(cc, len(lines), "codes")

if __name__ == "__main__":
    main()
