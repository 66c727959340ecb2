#pragma once

#include "agent/config/providerprofile.h"

#include <QCommandLineOption>
#include <QCoreApplication>

#include <optional>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace Loopscope::Launch {

/*!
    `--provider`, `--base-url`, `--model` and `--api-key-env`, spelled and
    checked the same way for `loopscope run` and for the window, and turned
    into a ProviderProfile that is used for this run and never saved.
*/
class ProviderOptions final
{
    Q_DECLARE_TR_FUNCTIONS(ProviderOptions)

public:
    ProviderOptions();

    void addTo(QCommandLineParser &parser) const;
    bool isAnySet(const QCommandLineParser &parser) const;
    // The profile the options describe; nullopt with *error when a value is wrong.
    std::optional<ProviderProfile> profile(const QCommandLineParser &parser, QString *error) const;

private:
    QCommandLineOption m_provider;
    QCommandLineOption m_baseUrl;
    QCommandLineOption m_model;
    QCommandLineOption m_apiKeyEnv;
};

} // namespace Loopscope::Launch
