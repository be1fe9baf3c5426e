-- Settings of one catalogue, and the models it adopted.
CREATE TABLE settings (
    key        TEXT    NOT NULL PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- `wardrobe model use`: every adoption is kept; the latest one is the
-- catalogue's model. A NULL model means back to the bundled one. The file's
-- bytes may be kept here, so the catalogue does not depend on the file.
CREATE TABLE model_adoptions (
    id          INTEGER PRIMARY KEY,
    model_id    INTEGER REFERENCES models(id),
    file        BLOB,
    source_path TEXT,
    command     TEXT    NOT NULL,
    adopted_at  INTEGER NOT NULL
);

-- How a run ended: NULL while it runs (or when it never ended), else
-- finished, interrupted (Ctrl-C) or failed.
ALTER TABLE runs ADD COLUMN outcome TEXT CHECK (outcome IN ('finished', 'interrupted', 'failed'));
UPDATE runs SET outcome = 'finished' WHERE finished_at IS NOT NULL;
