"""Writes the golden 422 fixtures for packages/core/test/RequestValidation.test.ts.

The expected responses come from the real pydantic v2 (installed on the dev machine) run on the
same models the TypeScript validator implements, wrapped the way FastAPI's request handling wraps
them: body read as bytes and parsed with `json.loads` (JSONDecodeError -> `json_invalid` at
["body", pos], a body that cannot be decoded -> 400), errors taken with `errors(include_url=False)`,
locations prefixed with "body" / "header" / "query", query and header errors before body errors,
`jsonable_encoder` turning exception objects in `ctx` into `{}`, and the body serialised as
`json.dumps(..., ensure_ascii=False, separators=(",", ":"))` (Starlette's JSONResponse).

Run: python3 packages/core/scripts/validation-goldens.py   (needs pydantic>=2; FastAPI is not needed)
"""
import base64
import json
import os
import shutil
from enum import Enum
from typing import Annotated, Any, Optional

import pydantic
from pydantic import TypeAdapter, BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator, model_validator
from pydantic_core import InitErrorDetails

OUT = os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "validation")


class Option(str, Enum):
    WEBSITE_ANALYSIS = "Order.WebsiteAnalysis"
    NAICS_PREDICTION = "Order.NaicsPrediction"
    PEP = "Order.Pep"
    ENHANCED = "Order.Enhanced"


class SearchState(str, Enum):
    PENDING = "PENDING"
    EXECUTING = "EXECUTING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


def Str(lo=None, hi=None):
    return Annotated[str, StringConstraints(min_length=lo, max_length=hi)]


Names = Annotated[list[Str(1, 500)], Field(max_length=50)]
FORM_MESSAGE = "Provide either name and address, or business_token alone"
TIN_MESSAGE = "TIN must be 9 digits; '-' and spaces are ignored"


class CreateSearchBody(BaseModel):
    """POST /searches body, v1 forms 1 and 2 (spec 'Create a search', DECISIONS section 5)."""

    model_config = ConfigDict(extra="forbid")

    name: Optional[Str(1, 500)] = None
    address: Optional[Str(2, 500)] = None
    officer_names: Optional[Names] = None
    website: Optional[Str(1, 2083)] = None
    phone_number: Optional[Str(None, 24)] = None
    email: Optional[Str(None, 64)] = None
    alternative_names: Optional[Names] = None
    tin: Optional[Str(None, 11)] = None
    options: Optional[Annotated[list[Option], Field(max_length=4)]] = None
    reference_id: Optional[Str(None, 128)] = None
    business_token: Optional[Str(1, 256)] = None

    @field_validator("tin")
    @classmethod
    def tin_digits(cls, v):
        if v is not None:
            stripped = v.replace("-", "").replace(" ", "")
            if len(stripped) != 9 or not all("0" <= c <= "9" for c in stripped):
                raise ValueError(TIN_MESSAGE)
        return v

    @model_validator(mode="wrap")
    @classmethod
    def one_form(cls, data, handler):
        """Exactly one identification form: missing name/address for a partial form 1, value_error otherwise."""
        if not isinstance(data, dict):
            return handler(data)
        errors = []
        try:
            result = handler(data)
        except ValidationError as e:
            result = None
            for x in e.errors(include_url=False):
                d = {"type": x["type"], "loc": x["loc"], "input": x["input"]}
                if "ctx" in x:
                    d["ctx"] = x["ctx"]
                errors.append(d)
        has = {k: data.get(k) is not None for k in ("name", "address", "business_token")}
        form = []
        if has["business_token"]:
            if has["name"] or has["address"]:
                form.append({"type": "value_error", "loc": (), "input": data, "ctx": {"error": ValueError(FORM_MESSAGE)}})
        elif not has["name"] and not has["address"]:
            form.append({"type": "value_error", "loc": (), "input": data, "ctx": {"error": ValueError(FORM_MESSAGE)}})
        else:
            for k in ("name", "address"):
                if k not in data or data[k] is None:
                    if not any(len(x["loc"]) > 0 and x["loc"][0] == k for x in errors):
                        form.append({"type": "missing", "loc": (k,), "input": data})
        if not errors and not form:
            return result
        fields = list(cls.model_fields)

        def rank(x):
            if len(x["loc"]) == 0:
                return len(fields) + 1
            return fields.index(x["loc"][0]) if x["loc"][0] in fields else len(fields)

        merged = sorted(errors + form, key=rank)
        raise ValidationError.from_exception_data(cls.__name__, [InitErrorDetails(**x) for x in merged])


class CreateSearchHeaders(BaseModel):
    idempotency_key: Optional[Annotated[str, StringConstraints(min_length=1, max_length=255, pattern=r"^[\x20-\x7E]+$")]] = Field(None, alias="idempotency-key")


class ListSearchesQuery(BaseModel):
    limit: int = Field(20, ge=1, le=100)
    cursor: Optional[Str(1, 512)] = None
    state: Optional[SearchState] = None
    reference_id: Optional[Str(None, 128)] = None


ROUTES = {
    "create_search": (CreateSearchBody, CreateSearchHeaders, None),
    "list_searches": (None, None, ListSearchesQuery),
}


def encode(x: Any) -> Any:
    """FastAPI's jsonable_encoder for the values that occur in pydantic errors."""
    if isinstance(x, dict):
        return {k: encode(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [encode(v) for v in x]
    if isinstance(x, BaseException):
        return {}  # dict(exc) fails, vars(exc) == {}
    if isinstance(x, Enum):
        return x.value
    return x


def errors_of(e: ValidationError, prefix: str):
    out = []
    for x in e.errors(include_url=False):
        d = {"type": x["type"], "loc": [prefix, *x["loc"]], "msg": x["msg"], "input": x["input"]}
        if "ctx" in x:
            d["ctx"] = x["ctx"]
        out.append(encode(d))
    return out


def respond(route: str, body: bytes, headers: dict, query: list):
    body_model, header_model, query_model = ROUTES[route]
    parsed = None
    if body_model is not None and len(body) > 0:
        try:
            parsed = json.loads(body)
        except json.JSONDecodeError as e:
            return 422, {"detail": [{"type": "json_invalid", "loc": ["body", e.pos], "msg": "JSON decode error", "input": {}, "ctx": {"error": e.msg}}]}
        except Exception:
            return 400, {"detail": "There was an error parsing the body"}
    errors = []
    values = {}
    if query_model is not None:
        qd = {}
        for k, v in query:  # Starlette's QueryParams.get: the last value wins
            qd[k] = v
        qd = {k: v for k, v in qd.items() if k in query_model.model_fields}
        try:
            values["query"] = query_model.model_validate(qd).model_dump(mode="json", exclude_unset=False)
        except ValidationError as e:
            errors += errors_of(e, "query")
    if header_model is not None:
        hd = {k.lower(): v for k, v in headers.items()}
        hd = {k: v for k, v in hd.items() if k in {f.alias for f in header_model.model_fields.values()}}
        try:
            values["headers"] = header_model.model_validate(hd).model_dump(mode="json", by_alias=True, exclude_none=True)
        except ValidationError as e:
            errors += errors_of(e, "header")
    if body_model is not None:
        if parsed is None:
            errors.append({"type": "missing", "loc": ["body"], "msg": "Field required", "input": None})
        else:
            try:
                # FastAPI validates a body field through a TypeAdapter with from_attributes=True.
                values["body"] = TypeAdapter(body_model).validate_python(parsed, from_attributes=True).model_dump(mode="json", exclude_none=True)
            except ValidationError as e:
                errors += errors_of(e, "body")
    if errors:
        return 422, {"detail": errors}
    return 200, values


def dumps(x):
    return json.dumps(x, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":"))


def main():
    from cases import CASES  # noqa: the case list lives beside this script

    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for i, case in enumerate(CASES, start=1):
        body = case.get("body", b"")
        if isinstance(body, str):
            body = body.encode("utf-8")
        elif not isinstance(body, (bytes, bytearray)):
            body = dumps(body).encode("utf-8")
        route = case.get("route", "create_search")
        status, payload = respond(route, bytes(body), case.get("headers", {}), case.get("query", []))
        request = {"route": route}
        try:
            request["body"] = body.decode("utf-8")
        except UnicodeDecodeError:
            request["body_base64"] = base64.b64encode(body).decode("ascii")
        request["headers"] = case.get("headers", {})
        request["query"] = case.get("query", [])
        fixture = {"name": case["name"], "request": request, "status": status}
        if status == 200:
            fixture["value"] = payload
        else:
            fixture["response"] = dumps(payload)
        slug = "".join(c if c.isalnum() else "-" for c in case["name"].lower()).strip("-")
        with open(os.path.join(OUT, f"{i:03d}-{slug[:60]}.json"), "w", encoding="utf-8") as f:
            f.write(json.dumps(fixture, ensure_ascii=False, indent=2) + "\n")
    print(f"wrote {len(CASES)} fixtures with pydantic {pydantic.VERSION}")


if __name__ == "__main__":
    main()
