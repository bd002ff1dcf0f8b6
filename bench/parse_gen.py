#!/usr/bin/env python3
"""Writes a big `triples` header-once dump for the parse benchmark (bench/parse.sh).

usage: parse_gen.py OUT.xml SIZE_MB [SEED]

~80 keys (the servlet vocabulary plus vendor extras), remarks with entities, CDATA and unicode,
some empty slots. Deterministic for a given seed.
"""
import random
import sys

KEYS = """mls_number status property_type list_price orig_price sold_price list_date modified bedrooms
full_baths half_baths sqft lot_sqft year_built street_number street_name unit city state zipcode county area
latitude longitude public_remarks realtor_remarks directions ftr_toshow owner_name la_id la_first_name
la_last_name la_car_phone la_phone_direct_office la_member_email lo_id lo_name""".split()
KEYS += [f"ftr_{n}" for n in ("pool", "spa", "view", "garage", "heating", "cooling", "roof", "floor",
                               "fireplace", "laundry", "parking", "sewer", "water", "zoning", "hoa_fee",
                               "hoa_name", "school_elem", "school_mid", "school_high", "tax_year", "tax_amount",
                               "apn", "stories", "style", "construction", "foundation", "appliances",
                               "interior", "exterior", "lot_desc", "community", "terms", "possession",
                               "disclosures", "showing", "lockbox", "occupant", "virtual_tour", "photo_count",
                               "dom", "cdom", "price_sqft", "agent_remarks_flag")]
KEYS = KEYS[:80]
LABELS = [k.replace("_", " ").title() for k in KEYS]

WORDS = ("sunny bright spacious remodeled kitchen ocean view canyon quiet cul-de-sac close to schools "
         "freeway shopping park granite hardwood solar owned pool spa gated community HOA low taxes "
         "turnkey fixer opportunity investor special must see").split()
CITIES = ["San Diego", "La Jolla", "Chula Vista", "El Cajon", "Escondido", "Oceanside", "Carlsbad",
          "Encinitas", "La Mesa", "Santee", "Poway", "Ramona", "Jamul", "Alpine", "Del Mar"]
STATUSES = ["Active", "Pending", "Sold", "Expired", "Withdrawn", "A", "P", "S"]
TYPES = ["Single Family Residential", "Multifamily", "Land", "Condo"]
ESCAPE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


FIRST = ["Jane", "John", "Maria", "José", "Wei", "Aisha", "Robert", "Linda", "Michael", "Susan", "David", "Karen"]
LAST = ["Doe", "Smith", "Garcia", "Nguyen", "Johnson", "Brown", "Martinez", "Lee", "Walker", "Hernández"]
AGENTS = [(f"A{n:04d}", FIRST[n % len(FIRST)], LAST[(n * 7) % len(LAST)]) for n in range(300)]
OFFICES = [(f"O{n:03d}", f"{w.title()} Realty &amp; Associates #{n}") for n, w in enumerate(WORDS[:40])]


def remarks(rng):
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60)))
    text += rng.choice([" — café & patio", " <3 bedrooms> & den", " Ñandú Señor", " price \"firm\"", ""])
    if rng.random() < 0.1:
        return "<![CDATA[" + text + "]]>"
    return text.translate(ESCAPE).replace("é", "&#233;")


def record(rng, n):
    price = rng.randint(150, 4000) * 1000
    agent_id, first, last = rng.choice(AGENTS)
    office_id, office = rng.choice(OFFICES)
    v = {
        "mls_number": str(230000000 + n), "status": rng.choice(STATUSES), "property_type": rng.choice(TYPES),
        "list_price": rng.choice([f"${price:,}", str(price), f"{price}.00"]), "orig_price": str(price + 5000),
        "sold_price": "", "list_date": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "modified": (f"2026-11-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
                     f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"),
        "bedrooms": str(rng.randint(1, 6)), "full_baths": str(rng.randint(1, 4)), "half_baths": "",
        "sqft": f"{rng.randint(600, 6000):,}", "lot_sqft": str(rng.randint(1000, 40000)),
        "year_built": str(rng.randint(1920, 2025)), "street_number": str(rng.randint(1, 99999)),
        "street_name": rng.choice(WORDS).title() + " St", "unit": "", "city": rng.choice(CITIES), "state": "CA",
        "zipcode": str(rng.randint(91900, 92199)), "county": "San Diego", "area": str(rng.randint(1, 99)),
        "latitude": f"{32.5 + rng.random():.6f}", "longitude": f"{-117.5 + rng.random():.6f}",
        "public_remarks": remarks(rng), "realtor_remarks": remarks(rng), "directions": "I-5 to exit 12",
        "ftr_toshow": rng.choice(["Call listing agent", "Lockbox on front door", "Appointment only", ""]),
        "owner_name": rng.choice(["Owner of Record", f"{rng.choice(LAST)} Family Trust", ""]),
        "la_id": agent_id, "la_first_name": first, "la_last_name": last,
        "la_car_phone": f"(619) 555-{rng.randint(0, 9999):04d}",
        "la_phone_direct_office": f"619-555-{rng.randint(0, 9999):04d}",
        "la_member_email": f"{first[0]}{last}@Example.com".replace("é", "e").replace("á", "a"),
        "lo_id": office_id, "lo_name": office,
    }
    return "|".join(v.get(k, rng.choice(["", "Y", "N", "1", "Some value"])) for k in KEYS)


def main():
    out, size_mb = sys.argv[1], float(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    target = int(size_mb * 1024 * 1024)
    written = 0
    with open(out, "w", encoding="utf-8") as f:
        head = ('<?xml version="1.0" encoding="UTF-8"?>\n<dump source="sdmls" generated="2026-11-28T02:00:00-08:00">\n'
                f'  <labels>{"|".join(LABELS)}</labels>\n  <keys>{"|".join(KEYS)}</keys>\n')
        f.write(head)
        written += len(head)
        n = 0
        while written < target:
            batch = "".join(f"  <listing><values>{record(rng, n + i)}</values></listing>\n" for i in range(1000))
            n += 1000
            f.write(batch)
            written += len(batch.encode("utf-8"))
        f.write("</dump>\n")
    print(f"{out}: {n} records, {written / 1048576:.0f} MiB")


if __name__ == "__main__":
    main()
