-- An image's id names it to a person: `list --ids` kept in a file and read back by `label
-- coat -`, `show 57`, serve's /image/57 kept as a bookmark. A new row here took one past the
-- highest id present, so once `forget` removed the image with the highest id, the next photo
-- imported took that id, and an id kept from before named another photo. (PostgreSQL's
-- identity never gives a number twice, but `copy` started the copy's numbering just past the
-- ids it carried.)
--
-- retired_image_ids: the highest id an image had and no longer has, one row at most, made
-- by the first image deleted. A new image's id is one past both it and every id present
-- (`NewImage.insertSQL`; on PostgreSQL the identity, which a `copy` into it starts past
-- both), and `copy` and `backup` carry it as any row, so no id is given twice on either
-- engine. It keeps a number only, nothing of the image.
--
-- What a catalogue forgot before this step is not known here: its numbering goes on from
-- the highest id present, so the ids of images forgotten before it, above every id still
-- present, may yet be given to the next photos imported (once each: from then on they
-- are kept).
CREATE TABLE retired_image_ids (
    highest INTEGER NOT NULL PRIMARY KEY
) WITHOUT ROWID;

CREATE TRIGGER image_ids_retired_on_delete AFTER DELETE ON images
WHEN OLD.id > coalesce((SELECT highest FROM retired_image_ids), 0)
BEGIN
    DELETE FROM retired_image_ids;
    INSERT INTO retired_image_ids (highest) VALUES (OLD.id);
END;
