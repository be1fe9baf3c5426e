-- An image's current label is its latest classification. Finding "the
-- current top 50 for a label" by scanning history would grow with every
-- re-run, so the latest classification of each image is kept in its own
-- table, maintained by a trigger in the same transaction as the insert.

CREATE TABLE current_classifications (
    image_id          INTEGER PRIMARY KEY REFERENCES images(id),
    classification_id INTEGER NOT NULL REFERENCES classifications(id),
    model_id          INTEGER NOT NULL,
    label             INTEGER NOT NULL,
    confidence        REAL    NOT NULL,
    classified_at     INTEGER NOT NULL
);
CREATE INDEX current_by_label_confidence
    ON current_classifications(label, confidence);

CREATE TRIGGER classifications_keep_current
AFTER INSERT ON classifications
BEGIN
    INSERT INTO current_classifications
        (image_id, classification_id, model_id, label, confidence, classified_at)
    VALUES
        (NEW.image_id, NEW.id, NEW.model_id, NEW.label, NEW.confidence, NEW.classified_at)
    ON CONFLICT (image_id) DO UPDATE SET
        classification_id = excluded.classification_id,
        model_id          = excluded.model_id,
        label             = excluded.label,
        confidence        = excluded.confidence,
        classified_at     = excluded.classified_at
    WHERE excluded.classification_id > current_classifications.classification_id;
END;

-- Catalogues made before this migration: the latest row per image.
INSERT INTO current_classifications
    (image_id, classification_id, model_id, label, confidence, classified_at)
SELECT c.image_id, c.id, c.model_id, c.label, c.confidence, c.classified_at
FROM classifications AS c
WHERE c.id = (SELECT max(id) FROM classifications WHERE image_id = c.image_id);
