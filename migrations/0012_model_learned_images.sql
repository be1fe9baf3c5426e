-- The catalogue images (by content hash) whose person label a model learned
-- from: the model file's record, copied here when the model is registered,
-- so every agreement figure can leave them out without the file at hand.
-- Models registered before this migration recorded none.
CREATE TABLE model_learned_images (
    model_id INTEGER NOT NULL REFERENCES models(id),
    sha256   BLOB    NOT NULL CHECK (length(sha256) = 32),
    PRIMARY KEY (model_id, sha256)
) WITHOUT ROWID;
