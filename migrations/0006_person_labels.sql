-- A person's labels, and the effective label every query uses.
--
-- Each row of `corrections` is one act of a person: a label set ('label'),
-- the model's label confirmed as right ('confirm', stored with that label),
-- or their label taken back ('clear', no label). Every act is kept, with
-- when and through which command; an image's latest act wins. Label 10 is
-- `none`: the photo shows none of the ten. The table is rebuilt because
-- SQLite cannot widen a CHECK constraint in place.
CREATE TABLE corrections_0006 (
    id           INTEGER PRIMARY KEY,
    image_id     INTEGER NOT NULL REFERENCES images(id),
    kind         TEXT    NOT NULL CHECK (kind IN ('label', 'confirm', 'clear')),
    label        INTEGER CHECK (label BETWEEN 0 AND 10),
    command      TEXT    NOT NULL,
    corrected_at INTEGER NOT NULL,
    CHECK ((kind = 'clear') = (label IS NULL))
);
INSERT INTO corrections_0006 (id, image_id, kind, label, command, corrected_at)
SELECT id, image_id, 'label', label, 'unknown', corrected_at FROM corrections;
DROP TABLE corrections;
ALTER TABLE corrections_0006 RENAME TO corrections;
CREATE INDEX corrections_by_image ON corrections(image_id, id);

-- The person's current label sits beside the model's in the row of the
-- current classification, so the effective label (the person's, else the
-- model's) is one indexed column: `list --label` stays an index walk and
-- counts stay one row, whether or not corrections are in play.
ALTER TABLE current_classifications ADD COLUMN corrected_label INTEGER;
ALTER TABLE current_classifications ADD COLUMN effective_label INTEGER
    GENERATED ALWAYS AS (coalesce(corrected_label, label)) VIRTUAL;

UPDATE current_classifications
SET corrected_label = (SELECT label FROM corrections
                       WHERE image_id = current_classifications.image_id ORDER BY id DESC LIMIT 1)
WHERE image_id IN (SELECT image_id FROM corrections);

DROP INDEX current_by_label_confidence;
CREATE INDEX current_by_effective_label_confidence
    ON current_classifications(effective_label, confidence);
CREATE INDEX current_corrected
    ON current_classifications(corrected_label) WHERE corrected_label IS NOT NULL;

-- A person's act reaches the current row at once ...
CREATE TRIGGER corrections_reach_current
AFTER INSERT ON corrections
BEGIN
    UPDATE current_classifications SET corrected_label = NEW.label WHERE image_id = NEW.image_id;
END;

-- ... and an image classified for the first time after it was labelled
-- starts with that label. A re-run never touches corrected_label.
DROP TRIGGER classifications_keep_current;
CREATE TRIGGER classifications_keep_current
AFTER INSERT ON classifications
BEGIN
    INSERT INTO current_classifications
        (image_id, classification_id, model_id, label, confidence, classified_at, corrected_label)
    VALUES
        (NEW.image_id, NEW.id, NEW.model_id, NEW.label, NEW.confidence, NEW.classified_at,
         (SELECT label FROM corrections WHERE image_id = NEW.image_id ORDER BY id DESC LIMIT 1))
    ON CONFLICT (image_id) DO UPDATE SET
        classification_id = excluded.classification_id,
        model_id          = excluded.model_id,
        label             = excluded.label,
        confidence        = excluded.confidence,
        classified_at     = excluded.classified_at
    WHERE excluded.classification_id > current_classifications.classification_id;
END;

-- Counts per label are counts per effective label.
DROP TRIGGER current_counts_on_insert;
DROP TRIGGER current_counts_on_relabel;
DROP TRIGGER current_counts_on_delete;
DELETE FROM current_label_counts;
INSERT INTO current_label_counts (label, images)
SELECT effective_label, count(*) FROM current_classifications GROUP BY effective_label;

CREATE TRIGGER current_counts_on_insert
AFTER INSERT ON current_classifications
BEGIN
    INSERT INTO current_label_counts (label, images) VALUES (NEW.effective_label, 1)
    ON CONFLICT (label) DO UPDATE SET images = images + 1;
END;

CREATE TRIGGER current_counts_on_relabel
AFTER UPDATE OF label, corrected_label ON current_classifications
WHEN OLD.effective_label != NEW.effective_label
BEGIN
    UPDATE current_label_counts SET images = images - 1 WHERE label = OLD.effective_label;
    INSERT INTO current_label_counts (label, images) VALUES (NEW.effective_label, 1)
    ON CONFLICT (label) DO UPDATE SET images = images + 1;
END;

CREATE TRIGGER current_counts_on_delete
AFTER DELETE ON current_classifications
BEGIN
    UPDATE current_label_counts SET images = images - 1 WHERE label = OLD.effective_label;
END;
