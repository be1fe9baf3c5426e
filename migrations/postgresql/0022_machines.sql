-- Each path is recorded with the machine it was seen on, the key the two together, as
-- SQLite's step 22 keeps them (see migrations/0022_machines.sql): paths recorded before
-- get the empty name, which the first machine to open the catalogue for writing takes.
ALTER TABLE image_paths ADD COLUMN machine text COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE image_paths DROP CONSTRAINT image_paths_pkey;
ALTER TABLE image_paths ADD PRIMARY KEY (machine, path);
