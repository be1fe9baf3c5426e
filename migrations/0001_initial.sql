-- The wardrobe catalogue: images, where they were seen, models, runs and
-- every classification ever made. Times are milliseconds since 1970 UTC.
-- A shipped migration is never edited; a change is a new migration.

-- "WRDB": marks the file as a wardrobe catalogue, so another program's
-- SQLite database is recognised and refused.
PRAGMA application_id = 1465009218;

CREATE TABLE images (
    id             INTEGER PRIMARY KEY,
    sha256         BLOB    NOT NULL UNIQUE CHECK (length(sha256) = 32),
    byte_size      INTEGER NOT NULL CHECK (byte_size >= 0),
    width          INTEGER NOT NULL CHECK (width >= 0),
    height         INTEGER NOT NULL CHECK (height >= 0),
    format         TEXT    NOT NULL,
    thumbnail      BLOB,                 -- JPEG bytes
    first_imported INTEGER NOT NULL
);

-- Where each image was seen. Size and modification time let an unchanged
-- file be skipped without hashing it again.
CREATE TABLE image_paths (
    path      TEXT    NOT NULL PRIMARY KEY,
    image_id  INTEGER NOT NULL REFERENCES images(id),
    size      INTEGER NOT NULL,
    mtime_ns  INTEGER NOT NULL,          -- nanoseconds since 1970 UTC
    last_seen INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX image_paths_by_image ON image_paths(image_id);

CREATE TABLE models (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL,
    version         TEXT    NOT NULL,
    sha256          BLOB    NOT NULL UNIQUE CHECK (length(sha256) = 32),
    labels          TEXT    NOT NULL,    -- JSON array of strings, index order
    parameter_count INTEGER NOT NULL,
    registered_at   INTEGER NOT NULL
);

CREATE TABLE runs (
    id             INTEGER PRIMARY KEY,
    command        TEXT    NOT NULL,
    model_id       INTEGER NOT NULL REFERENCES models(id),
    recipe_name    TEXT    NOT NULL,
    recipe_version INTEGER NOT NULL,
    started_at     INTEGER NOT NULL,
    finished_at    INTEGER,
    seen           INTEGER NOT NULL DEFAULT 0,
    imported       INTEGER NOT NULL DEFAULT 0,
    classified     INTEGER NOT NULL DEFAULT 0,
    skipped        INTEGER NOT NULL DEFAULT 0,
    failed         INTEGER NOT NULL DEFAULT 0
);

-- Every classification ever made. Rows are only added: a re-run adds rows,
-- and an image's current label is its latest classification.
CREATE TABLE classifications (
    id             INTEGER PRIMARY KEY,
    image_id       INTEGER NOT NULL REFERENCES images(id),
    run_id         INTEGER NOT NULL REFERENCES runs(id),
    model_id       INTEGER NOT NULL REFERENCES models(id),
    recipe_name    TEXT    NOT NULL,
    recipe_version INTEGER NOT NULL,
    logits         BLOB    NOT NULL CHECK (length(logits) = 40), -- 10 x float32 LE
    label          INTEGER NOT NULL CHECK (label BETWEEN 0 AND 9),
    confidence     REAL    NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    classified_at  INTEGER NOT NULL,
    UNIQUE (image_id, run_id)
);
CREATE INDEX classifications_by_run ON classifications(run_id);

CREATE TRIGGER classifications_are_never_updated
BEFORE UPDATE ON classifications
BEGIN
    SELECT RAISE(ABORT, 'classifications are never updated; add a new one');
END;

CREATE TRIGGER classifications_are_never_deleted
BEFORE DELETE ON classifications
BEGIN
    SELECT RAISE(ABORT, 'classifications are never deleted');
END;

CREATE TABLE import_failures (
    id        INTEGER PRIMARY KEY,
    path      TEXT    NOT NULL,
    reason    TEXT    NOT NULL,
    run_id    INTEGER REFERENCES runs(id),
    failed_at INTEGER NOT NULL
);
