-- Step 30 of SQLite's (see migrations/0030_image_ids_never_given_again.sql): the highest id
-- an image had and no longer has is kept in retired_image_ids, one row at most, so that a
-- `copy` out of this catalogue carries it and the copy gives that id to no new image (the
-- identity here never gives a number twice, but a copy carried only the ids present). A
-- `copy` into this catalogue starts the identity past it (`PostgresCatalogue.loading`).
CREATE TABLE retired_image_ids (
    highest bigint NOT NULL PRIMARY KEY
);

-- Unlike SQLite, this catalogue knows what it gave before this step: the identity's last
-- number, when past every id present, was that of an image forgotten since (or a number an
-- insert took and gave up, which no image had: keeping it costs nothing). None when the
-- sequence never gave one, or was last set by a copy.
INSERT INTO retired_image_ids (highest)
SELECT s.last_value FROM pg_sequences AS s
WHERE s.schemaname = current_schema()
  AND format('%I.%I', s.schemaname, s.sequencename) = pg_get_serial_sequence('images', 'id')
  AND s.last_value > (SELECT coalesce(max(id), 0) FROM images);

CREATE FUNCTION image_ids_retired() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    gone bigint;
BEGIN
    SELECT max(id) INTO gone FROM removed;
    IF gone > coalesce((SELECT highest FROM retired_image_ids), 0) THEN
        DELETE FROM retired_image_ids;
        INSERT INTO retired_image_ids (highest) VALUES (gone);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER image_ids_retired_on_delete AFTER DELETE ON images REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION image_ids_retired();
