import { type CatalogueEntry, CatalogueFileSchema } from '../../../shared/catalogue';
import data from './catalogue.json';

/** The servers that come with the app (validated here, and entry by entry in a test). */
export function shippedCatalogue(): CatalogueEntry[] {
  return CatalogueFileSchema.parse(data).entries;
}
