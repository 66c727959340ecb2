#pragma once

#include "agent/providers/providerprotocol.h"

#include <QDateTime>

#include <functional>
#include <optional>

namespace Loopscope {

/*!
    When to try a failed model request again and how long to wait, as the
    official SDKs do: up to maxRetries more attempts on connection errors,
    timeouts and 408/409/429/5xx (or whatever x-should-retry says), waiting
    min(0.5·2^n, 8) s less up to 25 % jitter, unless the server names a delay
    of at most 60 s in retry-after-ms or retry-after.
*/
class RetryPolicy final
{
public:
    explicit RetryPolicy(int maxRetries = 2)
        : m_maxRetries(maxRetries)
    {}

    // Tests shorten the backoff; the SDKs' base is 500 ms.
    void setBaseDelayMs(qint64 ms) { m_baseDelayMs = ms; }
    // Injected for tests: returns a value in [0, 1).
    void setRandom(std::function<double()> random) { m_random = std::move(random); }
    void setNow(std::function<QDateTime()> now) { m_now = std::move(now); }

    static bool isRetryableStatus(int httpStatus);

    // retriesDone: how many retries already happened. httpStatus 0 means the
    // request failed before any response (connection error or timeout).
    // Returns the delay in ms, or nothing when it should not be retried.
    std::optional<qint64> retryDelay(int retriesDone, int httpStatus,
                                     const HttpHeaders &responseHeaders) const;

private:
    std::optional<qint64> serverDelay(const HttpHeaders &headers) const;

    int m_maxRetries;
    qint64 m_baseDelayMs = 500;
    std::function<double()> m_random;
    std::function<QDateTime()> m_now;
};

QByteArray headerValue(const HttpHeaders &headers, QByteArrayView name);

} // namespace Loopscope
