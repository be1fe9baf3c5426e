-- Listings show the path where each image was seen most recently. Indexing
-- paths by (image, last seen) turns that into one index step instead of a
-- small sort per listed image.
DROP INDEX image_paths_by_image;
CREATE INDEX image_paths_by_image_recency ON image_paths(image_id, last_seen);
