"""A test client that is the table's own page: it asks by one of the table's names (Host
127.0.0.1) and carries the write token the page has from its HTML on every POST."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

#: where the test client says it asks (the default mode's Host)
BASE = "http://127.0.0.1:8765"


def table_client(app: FastAPI, **kw: Any) -> TestClient:
    headers = {"x-write-token": app.state.write_token, **kw.pop("headers", {})}
    return TestClient(app, base_url=BASE, headers=headers, **kw)
