//! The OpenAPI 3.1 description of `/api/v1`, served at `/api/v1/openapi.json`. Written by hand
//! (the API is small and its contract is shared with other tools); a test checks that it is
//! JSON and names every route.

pub const DOCUMENT: &str = r##"{
  "openapi": "3.1.0",
  "info": {
    "title": "boardbench results service",
    "version": "1",
    "description": "Result documents of boardbench runs (and imported sbc-bench logs): upload, list, fetch, HTML report and the Results.md table. Uploads need a bearer token (boardbench serve token add NAME); reading is open unless the service runs with --read-token. Errors are {\"error\": \"...\"}; nothing is stored on any 4xx."
  },
  "servers": [{"url": "/api/v1"}],
  "components": {
    "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
    "schemas": {
      "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
      "Stored": {"type": "object", "required": ["id", "hash", "created"], "properties": {
        "id": {"type": "integer"},
        "hash": {"type": "string", "description": "SHA-256 (hex) of the document re-serialised with sorted keys"},
        "created": {"type": "boolean"}}},
      "RunListing": {"type": "object", "properties": {
        "id": {"type": "integer"}, "hash": {"type": "string"},
        "device": {"type": ["string", "null"]}, "soc": {"type": ["string", "null"]},
        "kernel": {"type": ["string", "null"]}, "started": {"type": ["string", "null"]},
        "uploader": {"type": ["string", "null"]}}},
      "ResultDocument": {"type": "object", "description": "A boardbench result document (boardbench schema prints its JSON Schema)", "required": ["schema_version"]}
    },
    "parameters": {
      "id": {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}
    }
  },
  "paths": {
    "/runs": {
      "post": {
        "summary": "Upload one result document (idempotent by its hash)",
        "security": [{"token": []}],
        "parameters": [{"name": "tag", "in": "query", "schema": {"type": "string"}, "description": "tag the run (only one's own runs)"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResultDocument"}}}},
        "responses": {
          "201": {"description": "stored", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Stored"}}}},
          "200": {"description": "already stored (created: false)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Stored"}}}},
          "401": {"description": "no token or an unknown token", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "403": {"description": "revoked token, or tags on another uploader's run", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "413": {"description": "larger than the size limit (--max-upload, default 8 MiB)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "422": {"description": "not JSON, or not a valid result document", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        }
      },
      "get": {
        "summary": "List runs (filters as boardbench results list), by id",
        "parameters": [
          {"name": "soc", "in": "query", "schema": {"type": "string"}, "description": "SoC contains (case-insensitive)"},
          {"name": "device", "in": "query", "schema": {"type": "string"}, "description": "device contains (case-insensitive)"},
          {"name": "kernel", "in": "query", "schema": {"type": "string"}, "description": "kernel release starts with"},
          {"name": "arch", "in": "query", "schema": {"type": "string"}},
          {"name": "since", "in": "query", "schema": {"type": "string"}, "description": "YYYY-MM-DD or ISO 8601"},
          {"name": "until", "in": "query", "schema": {"type": "string"}, "description": "YYYY-MM-DD (whole day) or ISO 8601"},
          {"name": "tag", "in": "query", "schema": {"type": "string"}},
          {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 100, "maximum": 1000}},
          {"name": "offset", "in": "query", "schema": {"type": "integer", "default": 0}}
        ],
        "responses": {
          "200": {"description": "a page of runs", "content": {"application/json": {"schema": {"type": "object", "properties": {
            "runs": {"type": "array", "items": {"$ref": "#/components/schemas/RunListing"}},
            "total": {"type": "integer"}, "limit": {"type": "integer"}, "offset": {"type": "integer"}}}}}},
          "400": {"description": "a date that does not parse", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        }
      }
    },
    "/runs/{id}": {
      "parameters": [{"$ref": "#/components/parameters/id"}],
      "get": {"summary": "The stored document", "responses": {
        "200": {"description": "the document", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ResultDocument"}}}},
        "404": {"description": "no such run"}}},
      "delete": {"summary": "Delete one's own run", "security": [{"token": []}], "responses": {
        "204": {"description": "deleted"}, "401": {"description": "no or unknown token"},
        "403": {"description": "revoked token or another uploader's run"}, "404": {"description": "no such run"}}}
    },
    "/runs/{id}/report": {
      "parameters": [{"$ref": "#/components/parameters/id"}],
      "get": {"summary": "The HTML report of a run", "responses": {"200": {"description": "HTML", "content": {"text/html": {}}}, "404": {"description": "no such run"}}}
    },
    "/table": {
      "get": {
        "summary": "The Results.md table",
        "parameters": [
          {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["json", "csv", "md"], "default": "json"}},
          {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["id", "device", "clockspeed", "kernel", "distro", "7zip-multi", "7zip-single", "aes", "memcpy", "memset", "khs"]}},
          {"name": "desc", "in": "query", "schema": {"type": "string"}},
          {"name": "soc", "in": "query", "schema": {"type": "string"}},
          {"name": "device", "in": "query", "schema": {"type": "string"}},
          {"name": "kernel", "in": "query", "schema": {"type": "string"}},
          {"name": "since", "in": "query", "schema": {"type": "string"}},
          {"name": "until", "in": "query", "schema": {"type": "string"}},
          {"name": "tag", "in": "query", "schema": {"type": "string"}}
        ],
        "responses": {"200": {"description": "the table", "content": {"application/json": {}, "text/csv": {}, "text/markdown": {}}}}
      }
    },
    "/corpus": {
      "get": {
        "summary": "sbc-bench's published results (Results.md rows) the service places runs among, with source, date and licence notice (BSD-3-Clause)",
        "parameters": [{"name": "soc", "in": "query", "required": false, "schema": {"type": "string"}, "description": "only this SoC's rows"}],
        "responses": {"200": {"description": "source, date, in_use, rows, license, entries"}}
      }
    },
    "/guide": {
      "get": {
        "summary": "The performance guide of the stored guide runs: one column per board (its runs merged: the median with min and max), as the /guide page shows it",
        "parameters": [
          {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["json", "csv", "md"], "default": "json"}},
          {"name": "board", "in": "query", "schema": {"type": "string"}, "description": "only boards whose name contains this"},
          {"name": "table", "in": "query", "schema": {"type": "string"}, "description": "order the boards by a row of this table (with row)"},
          {"name": "row", "in": "query", "schema": {"type": "string"}, "description": "the row's label (name and further keys)"},
          {"name": "desc", "in": "query", "schema": {"type": "string"}}
        ],
        "responses": {"200": {"description": "header, sections (tables, notes), notes, runs, truncated, boards", "content": {"application/json": {}, "text/csv": {}, "text/markdown": {}}}, "400": {"description": "unknown format, or no such row to sort by"}}
      }
    },
    "/openapi.json": {"get": {"summary": "This document", "responses": {"200": {"description": "OpenAPI 3.1"}}}}
  }
}
"##;

#[cfg(test)]
mod tests {
    #[test]
    fn is_json_and_names_every_route() {
        let v: serde_json::Value = serde_json::from_str(super::DOCUMENT).unwrap();
        for p in [
            "/runs",
            "/runs/{id}",
            "/runs/{id}/report",
            "/table",
            "/corpus",
            "/guide",
            "/openapi.json",
        ] {
            assert!(v["paths"].get(p).is_some(), "{p}");
        }
    }
}
