-- "How many coats?" is asked often and should not cost a walk over every
-- coat's index entry. The number of images per current label is kept here,
-- maintained by triggers on current_classifications in the same transaction.
CREATE TABLE current_label_counts (
    label  INTEGER PRIMARY KEY,
    images INTEGER NOT NULL CHECK (images >= 0)
);

INSERT INTO current_label_counts (label, images)
SELECT label, count(*) FROM current_classifications GROUP BY label;

CREATE TRIGGER current_counts_on_insert
AFTER INSERT ON current_classifications
BEGIN
    INSERT INTO current_label_counts (label, images) VALUES (NEW.label, 1)
    ON CONFLICT (label) DO UPDATE SET images = images + 1;
END;

CREATE TRIGGER current_counts_on_relabel
AFTER UPDATE OF label ON current_classifications
WHEN OLD.label != NEW.label
BEGIN
    UPDATE current_label_counts SET images = images - 1 WHERE label = OLD.label;
    INSERT INTO current_label_counts (label, images) VALUES (NEW.label, 1)
    ON CONFLICT (label) DO UPDATE SET images = images + 1;
END;

CREATE TRIGGER current_counts_on_delete
AFTER DELETE ON current_classifications
BEGIN
    UPDATE current_label_counts SET images = images - 1 WHERE label = OLD.label;
END;
