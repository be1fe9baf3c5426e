-- The prepared tensor each image was classified from, per recipe: the 28x28 values the
-- model took (784 float32, little-endian, as the logits are kept), so that `reclassify`
-- after a new model reads them instead of decoding the thumbnail and preparing it again.
-- A recipe's tensor depends only on the thumbnail and the recipe (name and version), so
-- one row per image and recipe; a re-run under another recipe adds its own row. Rows are
-- written with the classification they were classified for, and only `forget` deletes them.
CREATE TABLE prepared_tensors (
    image_id       INTEGER NOT NULL REFERENCES images(id),
    recipe_name    TEXT    NOT NULL,
    recipe_version INTEGER NOT NULL,
    tensor         BLOB    NOT NULL CHECK (length(tensor) = 3136),
    PRIMARY KEY (image_id, recipe_name, recipe_version)
);
