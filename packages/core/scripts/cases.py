"""Requests for the golden validation fixtures. Bodies: dict/list/scalars are dumped compactly,
str is sent as UTF-8 text, bytes are sent as they are."""

OK = {"name": "Acme Widgets, Inc.", "address": "123 Main St, Springfield, IL 62701"}


def ok(**extra):
    return {**OK, **extra}


E = "\u00e9"  # 2 UTF-8 bytes, 1 code point
EMOJI = "\U0001F600"  # 4 UTF-8 bytes, 2 UTF-16 units, 1 code point

CASES = [
    # --- accepted requests (status 200, value = what the model kept)
    {"name": "form 1 minimal", "body": OK},
    {"name": "form 1 with every optional field", "body": ok(officer_names=["Jane Doe", "John Q. Public"], website="https://acme.example", phone_number="+1 (217) 555-0100", email="ops@acme.example", alternative_names=["Acme"], tin="12-3456789", options=["Order.WebsiteAnalysis", "Order.Pep"], reference_id="ref-1")},
    {"name": "form 2 token alone", "body": {"business_token": "tok_abc"}},
    {"name": "form 2 token with options and reference", "body": {"business_token": "tok_abc", "options": ["Order.Enhanced"], "reference_id": "r"}},
    {"name": "optional fields null are absent", "body": ok(website=None, tin=None, officer_names=None)},
    {"name": "name of 500 emoji is within bound", "body": ok(name=EMOJI * 500)},
    {"name": "address of 2 accented letters is within bound", "body": ok(address=E * 2)},
    {"name": "tin with spaces", "body": ok(tin="123 45 6789")},
    {"name": "idempotency key printable ascii", "body": OK, "headers": {"Idempotency-Key": "0f8fad5b-d9cb-469f-a165-70867728950e"}},
    {"name": "utf-8 bom is skipped", "body": b"\xef\xbb\xbf" + b'{"name":"A","address":"12 Main"}'},
    {"name": "duplicate key keeps the last value", "body": '{"name":5,"address":"12 Main","name":"Acme"}'},
    # --- body shape
    {"name": "empty body", "body": b""},
    {"name": "json null body", "body": "null"},
    {"name": "body is a list", "body": [1, 2]},
    {"name": "body is a string", "body": '"Acme"'},
    {"name": "body is a number", "body": "42"},
    {"name": "body is true", "body": "true"},
    {"name": "empty object: neither form", "body": {}},
    {"name": "both forms", "body": ok(business_token="tok_abc")},
    {"name": "token with name only", "body": {"business_token": "t", "name": "Acme"}},
    {"name": "names and addresses null: neither form", "body": {"name": None, "address": None}},
    # --- missing
    {"name": "missing address", "body": {"name": "Acme"}},
    {"name": "missing name", "body": {"address": "12 Main St"}},
    {"name": "missing name, extra field", "body": {"address": "12 Main St", "adress": "typo"}},
    # --- strings
    {"name": "name not a string", "body": ok(name=42)},
    {"name": "name is an object", "body": ok(name={"first": "A"})},
    {"name": "name is a list", "body": ok(name=["A"])},
    {"name": "name bool", "body": ok(name=False)},
    {"name": "name empty", "body": ok(name="")},
    {"name": "name 501 chars", "body": ok(name="x" * 501)},
    {"name": "name 501 emoji counts code points", "body": ok(name=EMOJI * 501)},
    {"name": "address one accented letter", "body": ok(address=E)},
    {"name": "address 501 accented letters", "body": ok(address=E * 501)},
    {"name": "website empty", "body": ok(website="")},
    {"name": "website over 2083", "body": ok(website="https://a.example/" + "p" * 2066)},
    {"name": "phone over 24", "body": ok(phone_number="+1 217 555 0100 ext 12345")},
    {"name": "email over 64 multibyte", "body": ok(email="\u00fc" * 65)},
    {"name": "reference_id 129", "body": ok(reference_id="r" * 129)},
    {"name": "reference_id number", "body": ok(reference_id=7)},
    {"name": "business token empty", "body": {"business_token": ""}},
    {"name": "business token number", "body": {"business_token": 12}},
    # --- tin
    {"name": "tin 8 digits", "body": ok(tin="12345678")},
    {"name": "tin letters", "body": ok(tin="12-ABCDEFG")},
    {"name": "tin 12 chars", "body": ok(tin="12-3456-7890")},
    {"name": "tin number", "body": ok(tin=123456789)},
    # --- lists
    {"name": "officer_names not a list", "body": ok(officer_names="Jane Doe")},
    {"name": "officer_names object", "body": ok(officer_names={"0": "Jane"})},
    {"name": "officer_names[3] not a string", "body": ok(officer_names=["A", "B", "C", 4])},
    {"name": "officer_names items empty and null", "body": ok(officer_names=["", None, "ok"])},
    {"name": "officer_names 51 items", "body": ok(officer_names=["x"] * 51)},
    {"name": "alternative_names nested list", "body": ok(alternative_names=[["a"]])},
    {"name": "alternative_names item too long", "body": ok(alternative_names=["a" * 501])},
    # --- enum
    {"name": "options unknown value", "body": ok(options=["Order.Website"])},
    {"name": "options number and null", "body": ok(options=[1, None, "Order.Pep"])},
    {"name": "options not a list", "body": ok(options="Order.Pep")},
    {"name": "options 5 items", "body": ok(options=["Order.Pep"] * 5)},
    # --- extra
    {"name": "extra field", "body": ok(adress="typo")},
    {"name": "two extra fields keep input order", "body": ok(zeta=1, alpha={"b": [1.5, None]})},
    {"name": "extra field with float and big int", "body": ok(amount=1e16, small=1e-05, big=123456789012345678901234567890, neg=-0.0)},
    # --- several errors in one body
    {"name": "several errors in one body", "body": {"name": "", "address": E, "officer_names": ["ok", 3], "tin": "x", "options": ["nope"], "email": "e" * 65, "extra": True}},
    {"name": "field errors and both forms", "body": {"name": 1, "address": "12 Main", "business_token": "t"}},
    {"name": "unicode in input echoed unescaped", "body": ok(name=1, colour="\u00e7a \u4e2d\u6587 " + EMOJI)},
    {"name": "control characters in input are escaped", "body": ok(note="tab\tnl\ndel\u007fbell\u0007")},
    # --- JSON syntax (Python json module messages, char positions)
    {"name": "json invalid: truncated object", "body": '{"name": "Acme"'},
    {"name": "json invalid: trailing comma", "body": '{"name": "Acme",}'},
    {"name": "json invalid: single quotes", "body": "{'name': 'Acme'}"},
    {"name": "json invalid: missing colon", "body": '{"name" "Acme"}'},
    {"name": "json invalid: missing comma", "body": '{"name": "A" "address": "B"}'},
    {"name": "json invalid: extra data", "body": '{"name": "A"} x'},
    {"name": "json invalid: whitespace only", "body": "   \n"},
    {"name": "json invalid: bare word", "body": "hello"},
    {"name": "json invalid: unterminated string", "body": '{"name": "Acme'},
    {"name": "json invalid: control character in string", "body": '{"name": "Ac\tme"}'},
    {"name": "json invalid: bad escape", "body": '{"name": "A\\qB"}'},
    {"name": "json invalid: bad unicode escape", "body": '{"name": "A\\u12G4"}'},
    {"name": "json invalid: position counts code points", "body": '{"name": "' + EMOJI + E + '", }'},
    {"name": "json invalid: array missing comma", "body": '{"officer_names": ["a" "b"]}'},
    {"name": "json invalid: leading zero", "body": '{"name": 01}'},
    {"name": "json invalid: minus alone", "body": '{"name": -}'},
    {"name": "json valid: escaped surrogate pair", "body": '{"name": 7, "address": "\\ud83d\\ude00 Main"}'},
    {"name": "invalid utf-8 body", "body": b'{"name": "\xff"}'},
    # --- headers
    {"name": "idempotency key too long", "body": OK, "headers": {"Idempotency-Key": "k" * 256}},
    {"name": "idempotency key empty", "body": OK, "headers": {"Idempotency-Key": ""}},
    {"name": "idempotency key not printable ascii", "body": OK, "headers": {"Idempotency-Key": "cl\u00e9"}},
    {"name": "header error comes before body errors", "body": {"name": "Acme"}, "headers": {"Idempotency-Key": "k\u0001"}},
    # --- query (GET /searches)
    {"name": "list query defaults", "route": "list_searches", "query": []},
    {"name": "list query values", "route": "list_searches", "query": [["limit", " 50 "], ["state", "COMPLETED"], ["reference_id", "r1"], ["unknown", "x"]]},
    {"name": "list query last value wins", "route": "list_searches", "query": [["limit", "abc"], ["limit", "5"]]},
    {"name": "list query limit not an integer", "route": "list_searches", "query": [["limit", "1.5"]]},
    {"name": "list query limit out of range", "route": "list_searches", "query": [["limit", "0"]]},
    {"name": "list query limit over 100 and bad state", "route": "list_searches", "query": [["limit", "101"], ["state", "DONE"]]},
    {"name": "list query cursor empty", "route": "list_searches", "query": [["cursor", ""]]},
]
