import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * JSON bodies are checked strictly (`"12"` is not an integer, `123` is not a name);
 * query strings are text by nature, so there numbers and booleans are read from it.
 */
export function registerValidation(app: FastifyInstance): void {
  const body = makeAjv(false);
  const query = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? body : query).compile(schema));

  // Fastify reads text/plain bodies by default; every body here is JSON or multipart, so any other
  // type is the client's mistake (415). It also shuts out the one body type a cross-site form can
  // post without a CORS preflight.
  app.removeContentTypeParser('text/plain');

  // An empty JSON body counts as no body, so optional bodies may be left out.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const source = typeof text === 'string' ? text : text.toString('utf8');
    if (source.trim() === '') return done(null, undefined);
    try {
      done(null, sjson.parse(source, undefined, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      const error = new Error('Malformed JSON body') as Error & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
}
