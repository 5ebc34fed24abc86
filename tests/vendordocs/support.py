"""Helpers for the vendor-docs tests: the seed pages, edits of them, a small spec."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SEEDS_DIR = REPO / "spec" / "sources" / "seeds"  # the pages live in the repository

SEED_000 = "000_8e5e63a75c0c5722.txt"  # terminate, English web text, Table 13 missing
SEED_001 = "001_f76a733aefb7eb27.txt"  # terminate, Chinese web text
SEED_002 = "002_63ab89c891148f33.txt"  # terminate, reStructuredText
SEED_003 = "003_268fe6fc14cf50e2.txt"  # show, English web text
SEED_004 = "004_126c216e710dc1ec.txt"  # create, pipe tables without titles
ALL_SEEDS = (SEED_000, SEED_001, SEED_002, SEED_003, SEED_004)

# A small, self-contained spec: the diff tests compare an edited page with its original against
# this same spec, so they do not depend on the curated spec's progress.
SMALL_SPEC = """\
openapi: 3.1.0
info: {title: small, version: 1.0.0}
paths:
  /v2/{project_id}/training-jobs:
    post:
      operationId: CreateTrainingJob
      parameters:
        - {name: project_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [kind, metadata]
              properties:
                kind: {type: string}
                metadata: {$ref: '#/components/schemas/JobMetadata'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
  /v2/{project_id}/training-jobs/{training_job_id}:
    get:
      operationId: ShowTrainingJobDetails
      parameters:
        - {name: project_id, in: path, required: true, schema: {type: string}}
        - {name: training_job_id, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
  /v2/{project_id}/training-jobs/{training_job_id}/actions:
    post:
      operationId: StopTrainingJob
      parameters:
        - {name: project_id, in: path, required: true, schema: {type: string}}
        - {name: training_job_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [action_type]
              properties:
                action_type: {type: string, enum: [terminate]}
      responses:
        '202':
          description: accepted
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Job'}
components:
  schemas:
    Job:
      type: object
      properties:
        kind: {type: string}
        metadata: {$ref: '#/components/schemas/JobMetadata'}
        status: {$ref: '#/components/schemas/Status'}
    JobMetadata:
      type: object
      properties:
        id: {type: string}
        name: {type: string}
        create_time: {type: integer, format: int64}
    Status:
      type: object
      properties:
        phase:
          type: string
          enum: [Creating, Pending, Running, Failed, Completed, Terminating, Terminated, Abnormal]
        start_time: {type: integer, format: int64}
        task_statuses:
          type: array
          items: {$ref: '#/components/schemas/TaskStatuses'}
    TaskStatuses:
      type: object
      properties:
        task: {type: string}
        exit_code: {type: integer, format: int32}
        message: {type: string}
"""


def seed_path(name: str) -> Path:
    path = SEEDS_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"seed page {path} is missing from spec/sources/seeds")
    return path


def seed_text(name: str) -> str:
    return seed_path(name).read_text(encoding="utf-8")


def edit(text: str, old: str, new: str) -> str:
    """Replace ``old`` (which must occur exactly once) by ``new``."""
    count = text.count(old)
    if count != 1:
        raise AssertionError(f"the edit expects {old!r} exactly once, found it {count} times")
    return text.replace(old, new)
