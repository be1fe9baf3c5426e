-- `wardrobe forget` removes an image for good. Classifications are still
-- never deleted, except those of an image listed here, which only exists
-- inside the transaction that forgets it.
CREATE TABLE images_being_forgotten (
    image_id INTEGER PRIMARY KEY
);

DROP TRIGGER classifications_are_never_deleted;
CREATE TRIGGER classifications_are_never_deleted
BEFORE DELETE ON classifications
WHEN NOT EXISTS (SELECT 1 FROM images_being_forgotten WHERE image_id = OLD.image_id)
BEGIN
    SELECT RAISE(ABORT, 'classifications are never deleted, except when forgetting their image');
END;
