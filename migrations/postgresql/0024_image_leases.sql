-- The images reclassifiers split between them, as SQLite's step 24 keeps them (see
-- migrations/0024_image_leases.sql).
CREATE TABLE image_leases (
    image_id   bigint NOT NULL PRIMARY KEY REFERENCES images(id) ON DELETE CASCADE,
    owner      text   NOT NULL,
    expires_at bigint NOT NULL
);
CREATE INDEX image_leases_by_owner ON image_leases(owner);
