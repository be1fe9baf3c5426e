-- Several `wardrobe reclassify` processes on one catalogue split its images: a process
-- classifies an image only while it holds the image's lease here, taken a few images at a
-- time, as importers hold files' (`file_leases`, step 23): the holder (`RunOwner`), an end
-- its heartbeat keeps moving, an expired lease taken over. An image a run of the same
-- model and recipe has classified already is not leased at all. The holder gives its
-- leases up once its last batch is in; forgetting the image drops its lease.
CREATE TABLE image_leases (
    image_id   INTEGER NOT NULL PRIMARY KEY REFERENCES images(id) ON DELETE CASCADE,
    owner      TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX image_leases_by_owner ON image_leases(owner);
