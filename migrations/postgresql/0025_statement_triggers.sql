-- What the server spends per imported image, cut without changing a stored value.
--
-- An import writes a batch's classifications, and its paths, in one statement each. Each
-- classification's current row and the per-label counts were kept by row-level triggers: a
-- PL/pgSQL call, an upsert of current_classifications, and from that row's own trigger a
-- second call and an upsert of label_counts, per image (a third of the server's statement
-- time per imported image, pg_stat_statements). They are now statement-level triggers over
-- the statement's transition tables: one upsert of the current rows per statement (the
-- latest classification of each image, as before), and one of the counts per label, sums of
-- the same terms. A new path stops its file failing the same way: one DELETE per statement.
--
-- Thumbnails (JPEG, or PNG for the smallest images) do not compress: pglz tried every one
-- (none of the 341 validation photos' shrank) before it was stored as it came. EXTERNAL
-- stores them out of line as before, without the try. Rows stored before keep their form.

ALTER TABLE images ALTER COLUMN thumbnail SET STORAGE EXTERNAL;

DROP TRIGGER classifications_keep_current ON classifications;
CREATE OR REPLACE FUNCTION classifications_keep_current() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO current_classifications AS cur
        (image_id, classification_id, model_id, label, confidence, classified_at, corrected_label)
    SELECT DISTINCT ON (a.image_id) a.image_id, a.id, a.model_id, a.label, a.confidence, a.classified_at,
           (SELECT label FROM corrections WHERE image_id = a.image_id ORDER BY id DESC LIMIT 1)
    FROM added AS a
    ORDER BY a.image_id, a.id DESC
    ON CONFLICT (image_id) DO UPDATE SET
        classification_id = excluded.classification_id,
        model_id          = excluded.model_id,
        label             = excluded.label,
        confidence        = excluded.confidence,
        classified_at     = excluded.classified_at
    WHERE excluded.classification_id > cur.classification_id;
    RETURN NULL;
END $$;
CREATE TRIGGER classifications_keep_current AFTER INSERT ON classifications REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION classifications_keep_current();

-- The counts per label: each current row inserted adds its terms (those add_to_label_counts
-- added one row at a time) to its effective label, each deleted takes them off, and an
-- updated one does both; summed per label, and labels whose sums are all 0 left alone.
DROP TRIGGER label_counts_on_insert ON current_classifications;
DROP TRIGGER label_counts_on_update ON current_classifications;
DROP TRIGGER label_counts_on_delete ON current_classifications;
CREATE OR REPLACE FUNCTION label_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    signed text := CASE TG_OP
        WHEN 'INSERT' THEN 'SELECT effective_label, label, corrected_label, confidence, 1 AS sign FROM added'
        WHEN 'DELETE' THEN 'SELECT effective_label, label, corrected_label, confidence, -1 AS sign FROM removed'
        ELSE 'SELECT effective_label, label, corrected_label, confidence, 1 AS sign FROM added UNION ALL '
             'SELECT effective_label, label, corrected_label, confidence, -1 AS sign FROM removed' END;
BEGIN
    EXECUTE format($sql$
        INSERT INTO label_counts AS k (label, images, corrected, model_images, model_confidence)
        SELECT c.effective_label, sum(c.sign), sum(c.sign * (c.corrected_label IS NOT NULL)::integer),
               sum(c.sign * (c.effective_label = c.label)::integer),
               sum(CASE WHEN c.effective_label = c.label THEN c.sign * floor(c.confidence * 1e9 + 0.5)::bigint ELSE 0 END)
        FROM (%s) AS c
        GROUP BY c.effective_label
        HAVING sum(c.sign) <> 0 OR sum(c.sign * (c.corrected_label IS NOT NULL)::integer) <> 0
            OR sum(c.sign * (c.effective_label = c.label)::integer) <> 0
            OR sum(CASE WHEN c.effective_label = c.label THEN c.sign * floor(c.confidence * 1e9 + 0.5)::bigint ELSE 0 END) <> 0
        ON CONFLICT (label) DO UPDATE SET
            images = k.images + excluded.images, corrected = k.corrected + excluded.corrected,
            model_images = k.model_images + excluded.model_images,
            model_confidence = k.model_confidence + excluded.model_confidence
        $sql$, signed);
    RETURN NULL;
END $$;
CREATE TRIGGER label_counts_on_insert AFTER INSERT ON current_classifications REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION label_counts_follow();
CREATE TRIGGER label_counts_on_update AFTER UPDATE ON current_classifications
    REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION label_counts_follow();
CREATE TRIGGER label_counts_on_delete AFTER DELETE ON current_classifications REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION label_counts_follow();

-- A path stored for the first time stops its file failing: one DELETE per statement. (A path
-- seen again keeps its row-level trigger on last_seen: a trigger with a column list cannot
-- see a transition table, and paths seen again are few.)
DROP TRIGGER stored_paths_stop_failing ON image_paths;
CREATE FUNCTION stored_paths_stop_failing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM failing_files WHERE path IN (SELECT path FROM added);
    RETURN NULL;
END $$;
CREATE TRIGGER stored_paths_stop_failing AFTER INSERT ON image_paths REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION stored_paths_stop_failing();
