import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/**
 * The OpenTelemetry SDK, loaded only when tracing is configured. The exporter
 * reads the standard `OTEL_EXPORTER_OTLP_*` variables (endpoint, headers,
 * timeout) and the batch processor `OTEL_BSP_*`; `register()` installs the
 * W3C trace-context propagator and an AsyncLocalStorage context, so a span
 * started in a request is the parent of everything awaited under it.
 */
export function startSdk(serviceName: string, version: string): () => Promise<void> {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName, [ATTR_SERVICE_VERSION]: version }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return () => provider.shutdown();
}
