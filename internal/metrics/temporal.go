package metrics

import (
	"context"
	"fmt"
	"log/slog"

	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
)

// temporalBuckets are the SDK's latency histograms' bounds, in seconds
// (OpenTelemetry's defaults are meant for milliseconds).
var temporalBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// initTemporal wires the SDK's metrics handler (go.temporal.io/sdk/contrib/
// opentelemetry) to an OpenTelemetry meter provider whose only reader is the
// Prometheus exporter on m's registry. The SDK names every metric
// temporal_…; the exporter adds _total to counters and _seconds to timers.
func (m *Metrics) initTemporal(log *slog.Logger) error {
	exp, err := otelprom.New(otelprom.WithRegisterer(m.reg), otelprom.WithoutScopeInfo(), otelprom.WithoutTargetInfo())
	if err != nil {
		return fmt.Errorf("metrics: prometheus exporter for the Temporal SDK: %w", err)
	}
	m.provider = sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp), sdkmetric.WithView(sdkmetric.NewView(
		sdkmetric.Instrument{Kind: sdkmetric.InstrumentKindHistogram},
		sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: temporalBuckets}},
	)))
	m.temporal = temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
		Meter:                m.provider.Meter("temporal-sdk-go"),
		UseMonotonicCounters: true,
		// The default panics; a metric the SDK cannot record must not stop a worker.
		OnError: func(err error) { log.Warn("metrics: temporal sdk instrument", "err", err) },
	})
	return nil
}

func noCancel() context.Context { return context.Background() }
