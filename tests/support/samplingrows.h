#pragma once

#include "agent/model/modelrequest.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>

namespace Loopscope::Testing {

// The rows of "top_p goes out under the protocol's own name, as set, and only when set", shared by
// the four provider adapter tests: columns topP and temperature, NaN for unset.
inline void addTopPRows()
{
    QTest::addColumn<double>("topP");
    QTest::addColumn<double>("temperature");
    QTest::newRow("unset: no top_p at all") << qQNaN() << qQNaN();
    QTest::newRow("set: sent as set") << 0.9 << qQNaN();
    QTest::newRow("zero is a value and is sent too") << 0.0 << qQNaN();
    // Some models refuse the two together; their error tells the user, a dropped value would not.
    QTest::newRow("with a temperature: both are sent as set") << 0.5 << 0.7;
}

// \a request with the row's sampling options.
inline ModelRequest withSampling(ModelRequest request, double topP, double temperature)
{
    if (!std::isnan(topP))
        request.options.topP = topP;
    if (!std::isnan(temperature))
        request.options.temperature = temperature;
    return request;
}

// What \a sampling (the body, or the object a protocol keeps sampling in) holds under \a topPName and
// \a temperatureName, to compare with expectedSampling().
inline QJsonObject sentSampling(const QJsonObject &sampling, const QString &topPName,
                                const QString &temperatureName)
{
    QJsonObject sent;
    for (const QString &name : {topPName, temperatureName}) {
        if (sampling.contains(name))
            sent.insert(name, sampling.value(name));
    }
    return sent;
}

inline QJsonObject expectedSampling(const QString &topPName, const QString &temperatureName, double topP,
                                    double temperature)
{
    QJsonObject expected;
    if (!std::isnan(topP))
        expected.insert(topPName, topP);
    if (!std::isnan(temperature))
        expected.insert(temperatureName, temperature);
    return expected;
}

} // namespace Loopscope::Testing
