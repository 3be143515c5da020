import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { boardExportRoutes } from './board-export.routes.js';
import { importRoutes } from './import.routes.js';

/** Board export (zip, CSV), the instance export, and the board import. */
export function exportRoutes(app: FastifyInstance, deps: Deps): void {
  boardExportRoutes(app, deps);
  importRoutes(app, deps);
}
