"""The OpenAPI document as the app serves it: FastAPI's, minus the 422 it adds on its own."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

_AUTOMATIC_422 = "#/components/schemas/HTTPValidationError"


def without_automatic_422(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` without FastAPI's automatic 422 entries and their schemas.

    FastAPI adds a 422 with its own error body to every route that has parameters; this app
    never sends that body (malformed requests get an ``ErrorOut``), and a route that can be
    malformed documents its 422 itself. So the automatic entries only ever claim a status the
    route cannot give, such as 422 for reading a game by its id (any string is an id).

    >>> doc = {"paths": {"/g/{id}": {"get": {"responses": {"200": {}, "422": {"content": {
    ...     "application/json": {"schema": {"$ref": _AUTOMATIC_422}}}}}}}},
    ...     "components": {"schemas": {"HTTPValidationError": {}, "ValidationError": {}}}}
    >>> without_automatic_422(doc)
    {'paths': {'/g/{id}': {'get': {'responses': {'200': {}}}}}, 'components': {'schemas': {}}}
    """
    for item in doc.get("paths", {}).values():
        for operation in item.values():
            responses = operation.get("responses", {})
            schema = (responses.get("422", {}).get("content", {})
                      .get("application/json", {}).get("schema", {}))
            if schema.get("$ref") == _AUTOMATIC_422:
                del responses["422"]
    schemas = doc.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    return doc


def install(app: FastAPI) -> None:
    """Makes ``app`` build its document through ``without_automatic_422`` (once, then cached)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = without_automatic_422(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
