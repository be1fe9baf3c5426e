-- Several machines share one catalogue (on a server), and a path means nothing on another
-- machine: each path is recorded with the machine it was seen on (`WARDROBE_MACHINE`, else
-- the host name), and the key is the two together, so that two machines with the same
-- folder keep their own path states. Paths recorded before this step get the empty name,
-- which the first machine to open the catalogue for writing takes as its own (a catalogue
-- made before machines had names was one machine's).
--
-- SQLite cannot change a primary key: the table is made again, with its index and its
-- triggers. `machine` comes first, where PostgreSQL's ADD COLUMN puts it last: SQLite 3.40's
-- integrity check reports NULLs that are not there in a WITHOUT ROWID table whose key
-- columns do not lead (copies match columns by name, so the order is free).
CREATE TABLE image_paths_by_machine (
    machine    TEXT    NOT NULL DEFAULT '',
    path       TEXT    NOT NULL,
    image_id   INTEGER NOT NULL REFERENCES images(id),
    size       INTEGER NOT NULL,
    mtime_ns   INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL,
    missing    INTEGER NOT NULL DEFAULT 0 CHECK (missing IN (0, 1)),
    checked_at INTEGER,
    path_bytes BLOB,
    PRIMARY KEY (machine, path)
) WITHOUT ROWID;
INSERT INTO image_paths_by_machine (machine, path, image_id, size, mtime_ns, last_seen, missing, checked_at, path_bytes)
SELECT '', path, image_id, size, mtime_ns, last_seen, missing, checked_at, path_bytes FROM image_paths;
-- Drops its index and triggers with it; the counts it kept stay right, as no row changes.
DROP TABLE image_paths;
ALTER TABLE image_paths_by_machine RENAME TO image_paths;

CREATE INDEX image_paths_by_image_best ON image_paths(image_id, missing, last_seen DESC, path DESC);

CREATE TRIGGER stored_paths_stop_failing
AFTER INSERT ON image_paths
BEGIN
    DELETE FROM failing_files WHERE path = NEW.path;
END;

CREATE TRIGGER seen_paths_stop_failing
AFTER UPDATE OF last_seen ON image_paths
BEGIN
    DELETE FROM failing_files WHERE path = NEW.path;
END;

CREATE TRIGGER paths_counted_on_insert AFTER INSERT ON image_paths
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('paths', 1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
    INSERT INTO catalogue_counts (counted, amount) SELECT 'missing paths', 1 WHERE NEW.missing = 1
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
CREATE TRIGGER paths_counted_on_delete AFTER DELETE ON image_paths
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('paths', -1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
    INSERT INTO catalogue_counts (counted, amount) SELECT 'missing paths', -1 WHERE OLD.missing = 1
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
CREATE TRIGGER missing_paths_counted AFTER UPDATE OF missing ON image_paths
WHEN OLD.missing IS NOT NEW.missing
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('missing paths', NEW.missing - OLD.missing)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
