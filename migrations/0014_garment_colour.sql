-- The garment's main colours, measured on the stored thumbnail under the mask the photo
-- recipe finds (Imaging's GarmentColours). colour is the garment's one palette name (black,
-- white, grey, beige, brown, red, pink, orange, yellow, green, blue, navy, purple or
-- multicolour); colours its main colours, up to three, largest first, each as
-- "name share L* a* b*" (share of the measured area, 0 to 1; the CIELAB mean of the pixels
-- it names), separated by ";"; colour_on_garment 1 when a garment was found and measured,
-- 0 when the whole thumbnail was. All NULL until measured: images imported before this
-- migration are measured by `wardrobe colours`, which reads only their thumbnails.
ALTER TABLE images ADD COLUMN colour TEXT;
ALTER TABLE images ADD COLUMN colours TEXT;
ALTER TABLE images ADD COLUMN colour_on_garment INTEGER CHECK (colour_on_garment IN (0, 1));
CREATE INDEX images_by_colour ON images (colour);
