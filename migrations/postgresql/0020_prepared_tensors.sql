-- The prepared tensor each image was classified from, per recipe, as SQLite's step 20
-- keeps it (see migrations/0020_prepared_tensors.sql): 784 float32, little-endian.
CREATE TABLE prepared_tensors (
    image_id       bigint  NOT NULL REFERENCES images(id),
    recipe_name    text    NOT NULL,
    recipe_version integer NOT NULL,
    tensor         bytea   NOT NULL CHECK (octet_length(tensor) = 3136),
    PRIMARY KEY (image_id, recipe_name, recipe_version)
);
