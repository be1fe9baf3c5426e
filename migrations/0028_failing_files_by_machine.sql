-- A file that fails to import is recorded with the machine it failed on, as its paths are
-- (step 22), the key the two together: a path means nothing on another machine. Keyed by
-- path alone, an import or `prune` on one machine dropped the failures another had recorded
-- under the same path (not there, or stored fine, on this one), and `failures` listed every
-- machine's as this one's. Rows recorded before get the empty name, which the first machine
-- to open the catalogue for writing takes, as it takes the paths.
--
-- SQLite cannot change a primary key: the table is made again, `machine` first (as step 22
-- made image_paths, for SQLite 3.40's integrity check). The triggers on image_paths that
-- name the table go first: a table renamed over one they name fails while they stand.
DROP TRIGGER stored_paths_stop_failing;
DROP TRIGGER seen_paths_stop_failing;
CREATE TABLE failing_files_by_machine (
    machine       TEXT    NOT NULL DEFAULT '',
    path          TEXT    NOT NULL,
    size          INTEGER,
    mtime_ns      INTEGER,
    reason        TEXT    NOT NULL,
    run_id        INTEGER REFERENCES runs(id),
    first_failed  INTEGER NOT NULL,
    last_failed   INTEGER NOT NULL,
    attempts      INTEGER NOT NULL CHECK (attempts >= 1),
    path_bytes    BLOB,
    PRIMARY KEY (machine, path)
) WITHOUT ROWID;
INSERT INTO failing_files_by_machine (machine, path, size, mtime_ns, reason, run_id, first_failed, last_failed,
                                      attempts, path_bytes)
SELECT '', path, size, mtime_ns, reason, run_id, first_failed, last_failed, attempts, path_bytes FROM failing_files;
DROP TABLE failing_files;
ALTER TABLE failing_files_by_machine RENAME TO failing_files;

-- A path stored, or seen again, stops failing on the machine it was seen on only.
CREATE TRIGGER stored_paths_stop_failing
AFTER INSERT ON image_paths
BEGIN
    DELETE FROM failing_files WHERE machine = NEW.machine AND path = NEW.path;
END;
CREATE TRIGGER seen_paths_stop_failing
AFTER UPDATE OF last_seen ON image_paths
BEGIN
    DELETE FROM failing_files WHERE machine = NEW.machine AND path = NEW.path;
END;

-- The count of failing files the table's own triggers kept (step 15) went with the old table;
-- no row changed, so the count stands and the triggers are made again.
CREATE TRIGGER failing_files_counted_on_insert AFTER INSERT ON failing_files
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('failing files', 1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
CREATE TRIGGER failing_files_counted_on_delete AFTER DELETE ON failing_files
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('failing files', -1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
