-- Counts kept by triggers, as SQLite's step 15 keeps them (see
-- migrations/0015_kept_counts.sql for what each row means): catalogue_counts
-- for the whole catalogue, label_counts (which replaces current_label_counts)
-- per effective label.
--
-- Several importers may write at once, but every writing transaction first
-- takes the catalogue's advisory write lock (PostgresConnection.writeLock), so
-- batches take turns as SQLite's do: a count's row is never waited for while
-- another transaction holds it, and each count is exact. (Were the lock
-- lifted, one row per count would serialise the batches anyway, and two
-- adding to two labels in opposite orders would deadlock.)
--
-- Whole-catalogue counts are added once per statement, from its transition
-- tables; the labels once per row, as the current rows are written one by one
-- by the triggers of 0012.
CREATE TABLE catalogue_counts (
    counted text   NOT NULL PRIMARY KEY,
    amount  bigint NOT NULL
);

CREATE TABLE label_counts (
    label            integer NOT NULL PRIMARY KEY,
    images           bigint  NOT NULL,
    corrected        bigint  NOT NULL,
    model_images     bigint  NOT NULL,
    model_confidence bigint  NOT NULL
);

INSERT INTO catalogue_counts (counted, amount)
SELECT counted, amount FROM (
    SELECT 'images' AS counted, count(*) AS amount FROM images
    UNION ALL SELECT 'paths', count(*) FROM image_paths
    UNION ALL SELECT 'missing paths', count(*) FROM image_paths WHERE missing = 1
    UNION ALL SELECT 'classifications', count(*) FROM classifications
    UNION ALL SELECT 'corrections', count(*) FROM corrections
    UNION ALL SELECT 'failing files', count(*) FROM failing_files) AS totals
WHERE amount > 0;

INSERT INTO label_counts (label, images, corrected, model_images, model_confidence)
SELECT effective_label, count(*), count(corrected_label), count(*) FILTER (WHERE effective_label = label),
       coalesce(sum(floor(confidence * 1e9 + 0.5)::bigint) FILTER (WHERE effective_label = label), 0)
FROM current_classifications GROUP BY effective_label;

DROP TRIGGER current_counts_on_insert ON current_classifications;
DROP TRIGGER current_counts_on_relabel ON current_classifications;
DROP TRIGGER current_counts_on_delete ON current_classifications;
DROP FUNCTION current_counts_follow();
DROP TABLE current_label_counts;

CREATE FUNCTION add_to_count(what text, change bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO catalogue_counts AS k (counted, amount) VALUES (what, change)
    ON CONFLICT (counted) DO UPDATE SET amount = k.amount + excluded.amount;
$$;

-- Rows inserted or deleted by one statement, counted as TG_ARGV[0].
CREATE FUNCTION rows_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT count(*) INTO changed FROM added;
    ELSE
        SELECT -count(*) INTO changed FROM removed;
    END IF;
    IF changed <> 0 THEN
        PERFORM add_to_count(TG_ARGV[0], changed);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER images_counted_on_insert AFTER INSERT ON images REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('images');
CREATE TRIGGER images_counted_on_delete AFTER DELETE ON images REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('images');
CREATE TRIGGER classifications_counted_on_insert AFTER INSERT ON classifications REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('classifications');
CREATE TRIGGER classifications_counted_on_delete AFTER DELETE ON classifications REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('classifications');
CREATE TRIGGER corrections_counted_on_insert AFTER INSERT ON corrections REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('corrections');
CREATE TRIGGER corrections_counted_on_delete AFTER DELETE ON corrections REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('corrections');
CREATE TRIGGER failing_files_counted_on_insert AFTER INSERT ON failing_files REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('failing files');
CREATE TRIGGER failing_files_counted_on_delete AFTER DELETE ON failing_files REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION rows_counted('failing files');

-- Paths, and those missing at the last look, by one statement.
CREATE FUNCTION paths_counted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    path_change    bigint := 0;
    missing_change bigint := 0;
    rows_in        bigint;
    missing_in     bigint;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT count(*), coalesce(sum(a.missing), 0) INTO rows_in, missing_in FROM added AS a;
        path_change := path_change + CASE WHEN TG_OP = 'INSERT' THEN rows_in ELSE 0 END;
        missing_change := missing_change + missing_in;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT count(*), coalesce(sum(r.missing), 0) INTO rows_in, missing_in FROM removed AS r;
        path_change := path_change - CASE WHEN TG_OP = 'DELETE' THEN rows_in ELSE 0 END;
        missing_change := missing_change - missing_in;
    END IF;
    IF path_change <> 0 THEN
        PERFORM add_to_count('paths', path_change);
    END IF;
    IF missing_change <> 0 THEN
        PERFORM add_to_count('missing paths', missing_change);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER paths_counted_on_insert AFTER INSERT ON image_paths REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION paths_counted();
CREATE TRIGGER paths_counted_on_update AFTER UPDATE ON image_paths REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION paths_counted();
CREATE TRIGGER paths_counted_on_delete AFTER DELETE ON image_paths REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION paths_counted();

-- A current row's part in its effective label's counts, times `sign`.
CREATE FUNCTION add_to_label_counts(effective integer, model_label integer, person_label integer,
                                    confidence double precision, sign integer) RETURNS void LANGUAGE sql AS $$
    INSERT INTO label_counts AS k (label, images, corrected, model_images, model_confidence)
    VALUES (effective, sign, sign * (person_label IS NOT NULL)::integer,
            sign * (effective = model_label)::integer,
            CASE WHEN effective = model_label THEN sign * floor(confidence * 1e9 + 0.5)::bigint ELSE 0 END)
    ON CONFLICT (label) DO UPDATE SET
        images = k.images + excluded.images, corrected = k.corrected + excluded.corrected,
        model_images = k.model_images + excluded.model_images,
        model_confidence = k.model_confidence + excluded.model_confidence;
$$;

CREATE FUNCTION label_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM add_to_label_counts(OLD.effective_label, OLD.label, OLD.corrected_label, OLD.confidence, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM add_to_label_counts(NEW.effective_label, NEW.label, NEW.corrected_label, NEW.confidence, 1);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER label_counts_on_insert AFTER INSERT ON current_classifications
    FOR EACH ROW EXECUTE FUNCTION label_counts_follow();
CREATE TRIGGER label_counts_on_update AFTER UPDATE ON current_classifications
    FOR EACH ROW WHEN ((OLD.label, OLD.corrected_label, OLD.confidence) IS DISTINCT FROM
                       (NEW.label, NEW.corrected_label, NEW.confidence))
    EXECUTE FUNCTION label_counts_follow();
CREATE TRIGGER label_counts_on_delete AFTER DELETE ON current_classifications
    FOR EACH ROW EXECUTE FUNCTION label_counts_follow();
