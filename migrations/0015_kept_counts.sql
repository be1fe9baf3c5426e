-- `wardrobe stats` should not walk a million images for its totals. What it
-- counts is kept here, by triggers, in the transaction of each write:
--
-- catalogue_counts: rows of the whole catalogue, by what is counted:
--   'images', 'paths', 'missing paths' (image_paths.missing = 1),
--   'classifications', 'corrections', 'failing files'.
-- label_counts, which replaces current_label_counts (0005, 0006): per
--   effective label of the current classifications, its images, those with a
--   person's label (`corrected`), those whose effective label is the model's
--   own (`model_images`), and the sum of the model's confidence in them, in
--   billionths rounded to the nearest (`model_confidence`), an integer so that
--   what is added and taken away again leaves exactly what was there (a sum of
--   doubles would not); the mean is model_confidence / model_images / 1e9.
--
-- A count never written has no row: a new catalogue holds none, which `copy`
-- takes for empty. A change is added to its row, made if missing.
CREATE TABLE catalogue_counts (
    counted TEXT    NOT NULL PRIMARY KEY,
    amount  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE label_counts (
    label            INTEGER NOT NULL PRIMARY KEY,
    images           INTEGER NOT NULL,
    corrected        INTEGER NOT NULL,
    model_images     INTEGER NOT NULL,
    model_confidence INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO catalogue_counts (counted, amount)
SELECT counted, amount FROM (
    SELECT 'images' AS counted, count(*) AS amount FROM images
    UNION ALL SELECT 'paths', count(*) FROM image_paths
    UNION ALL SELECT 'missing paths', count(*) FROM image_paths WHERE missing = 1
    UNION ALL SELECT 'classifications', count(*) FROM classifications
    UNION ALL SELECT 'corrections', count(*) FROM corrections
    UNION ALL SELECT 'failing files', count(*) FROM failing_files)
WHERE amount > 0;

INSERT INTO label_counts (label, images, corrected, model_images, model_confidence)
SELECT effective_label, count(*), count(corrected_label), count(CASE WHEN effective_label = label THEN 1 END),
       coalesce(sum(CASE WHEN effective_label = label THEN CAST(confidence * 1e9 + 0.5 AS INTEGER) END), 0)
FROM current_classifications GROUP BY effective_label;

DROP TRIGGER current_counts_on_insert;
DROP TRIGGER current_counts_on_relabel;
DROP TRIGGER current_counts_on_delete;
DROP TABLE current_label_counts;

CREATE TRIGGER images_counted_on_insert AFTER INSERT ON images
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('images', 1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
CREATE TRIGGER images_counted_on_delete AFTER DELETE ON images
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('images', -1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
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

CREATE TRIGGER classifications_counted_on_insert AFTER INSERT ON classifications
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('classifications', 1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
CREATE TRIGGER classifications_counted_on_delete AFTER DELETE ON classifications
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('classifications', -1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;

CREATE TRIGGER corrections_counted_on_insert AFTER INSERT ON corrections
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('corrections', 1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;
CREATE TRIGGER corrections_counted_on_delete AFTER DELETE ON corrections
BEGIN
    INSERT INTO catalogue_counts (counted, amount) VALUES ('corrections', -1)
    ON CONFLICT (counted) DO UPDATE SET amount = amount + excluded.amount;
END;

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

-- A current row counts for its effective label; a change takes the old row's
-- part away and adds the new one's.
CREATE TRIGGER label_counts_on_insert AFTER INSERT ON current_classifications
BEGIN
    INSERT INTO label_counts (label, images, corrected, model_images, model_confidence)
    VALUES (NEW.effective_label, 1, (NEW.corrected_label IS NOT NULL), (NEW.effective_label = NEW.label),
            CASE WHEN NEW.effective_label = NEW.label THEN CAST(NEW.confidence * 1e9 + 0.5 AS INTEGER) ELSE 0 END)
    ON CONFLICT (label) DO UPDATE SET
        images = images + excluded.images, corrected = corrected + excluded.corrected,
        model_images = model_images + excluded.model_images, model_confidence = model_confidence + excluded.model_confidence;
END;
CREATE TRIGGER label_counts_on_update AFTER UPDATE ON current_classifications
WHEN OLD.label IS NOT NEW.label OR OLD.corrected_label IS NOT NEW.corrected_label OR OLD.confidence IS NOT NEW.confidence
BEGIN
    INSERT INTO label_counts (label, images, corrected, model_images, model_confidence)
    VALUES (OLD.effective_label, -1, -(OLD.corrected_label IS NOT NULL), -(OLD.effective_label = OLD.label),
            -CASE WHEN OLD.effective_label = OLD.label THEN CAST(OLD.confidence * 1e9 + 0.5 AS INTEGER) ELSE 0 END)
    ON CONFLICT (label) DO UPDATE SET
        images = images + excluded.images, corrected = corrected + excluded.corrected,
        model_images = model_images + excluded.model_images, model_confidence = model_confidence + excluded.model_confidence;
    INSERT INTO label_counts (label, images, corrected, model_images, model_confidence)
    VALUES (NEW.effective_label, 1, (NEW.corrected_label IS NOT NULL), (NEW.effective_label = NEW.label),
            CASE WHEN NEW.effective_label = NEW.label THEN CAST(NEW.confidence * 1e9 + 0.5 AS INTEGER) ELSE 0 END)
    ON CONFLICT (label) DO UPDATE SET
        images = images + excluded.images, corrected = corrected + excluded.corrected,
        model_images = model_images + excluded.model_images, model_confidence = model_confidence + excluded.model_confidence;
END;
CREATE TRIGGER label_counts_on_delete AFTER DELETE ON current_classifications
BEGIN
    INSERT INTO label_counts (label, images, corrected, model_images, model_confidence)
    VALUES (OLD.effective_label, -1, -(OLD.corrected_label IS NOT NULL), -(OLD.effective_label = OLD.label),
            -CASE WHEN OLD.effective_label = OLD.label THEN CAST(OLD.confidence * 1e9 + 0.5 AS INTEGER) ELSE 0 END)
    ON CONFLICT (label) DO UPDATE SET
        images = images + excluded.images, corrected = corrected + excluded.corrected,
        model_images = model_images + excluded.model_images, model_confidence = model_confidence + excluded.model_confidence;
END;
