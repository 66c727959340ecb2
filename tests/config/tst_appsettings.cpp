#include "agent/config/appsettings.h"
#include "agent/providers/providerprotocol.h"
#include "agent/tools/builtin/builtintools.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

// Declared before the tests use it: a release build instantiates QMetaTypeId
// at the first use and refuses a later specialisation.
Q_DECLARE_METATYPE(Loopscope::AgentConfig)

using namespace Loopscope;
using namespace Qt::StringLiterals;

using Rules = QHash<QString, QString>;

class AppSettingsTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;

    QByteArray fileContents() const
    {
        QFile file(m_path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(u"settings-%1.ini"_s.arg(QString::fromLatin1(QTest::currentTestFunction())));
        QFile::remove(m_path);
    }

    void aFreshFileGivesTheDefaults()
    {
        QSettings settings(m_path, QSettings::IniFormat);
        const AppSettings app(&settings);
        QCOMPARE(app.agentConfig(), AgentConfig());
        QCOMPARE(app.providerReadTimeoutMs(), ProviderEndpoint().readTimeoutMs);
        QCOMPARE(app.enabledTools(), builtinToolNames());
        QVERIFY(!app.enabledTools().isEmpty());
        QCOMPARE(app.workspaceFolder(), AppSettings::defaultWorkspaceFolder());
        QVERIFY(!app.workspaceChosen());
        QCOMPARE(app.toolApprovalRules(), (QHash<QString, QString>()));
        QCOMPARE(app.sendOnEnter(), false);
    }

    void everySettingRoundTripsThroughAFreshQSettings_data()
    {
        QTest::addColumn<AgentConfig>("config");
        QTest::addColumn<int>("readTimeoutMs");
        QTest::addColumn<QStringList>("enabledTools");
        QTest::addColumn<QString>("workspace");
        QTest::addColumn<Rules>("rules");
        QTest::addColumn<bool>("sendOnEnter");

        const QStringList all = builtinToolNames();
        AgentConfig tight;
        tight.maxIterations = 3;
        tight.maxParallelTools = 1;
        tight.toolTimeoutMs = 2'500;
        tight.postLoop = PostLoopMode::Summary;
        tight.systemPrompt = u"Answer in one line.\nQuote \"exactly\"; never guess = ok, ÄÖÜ."_s;
        QTest::newRow("every value changed, one tool of each rule")
            << tight << 45'000 << QStringList{all.constFirst()} << m_dir.filePath(u"work space"_s)
            << QHash<QString, QString>{{all.at(0), u"always"_s},
                                       {all.at(1), u"ask"_s},
                                       {all.at(2), u"never"_s}}
            << false;

        AgentConfig none;
        none.postLoop = PostLoopMode::None;
        none.maxIterations = 50;
        QTest::newRow("no tools enabled and no fallback call")
            << none << 1'000 << QStringList() << m_dir.path()
            << QHash<QString, QString>{{all.last(), u"ask"_s}} << true;

        QTest::newRow("defaults written back stay defaults")
            << AgentConfig() << ProviderEndpoint().readTimeoutMs << all << QDir::homePath()
            << QHash<QString, QString>() << true;
    }

    void everySettingRoundTripsThroughAFreshQSettings()
    {
        QFETCH(AgentConfig, config);
        QFETCH(int, readTimeoutMs);
        QFETCH(QStringList, enabledTools);
        QFETCH(QString, workspace);
        QFETCH(Rules, rules);
        QFETCH(bool, sendOnEnter);
        {
            QSettings settings(m_path, QSettings::IniFormat);
            AppSettings app(&settings);
            app.setAgentConfig(config);
            app.setProviderReadTimeoutMs(readTimeoutMs);
            app.setEnabledTools(enabledTools);
            app.setWorkspaceFolder(workspace);
            app.setToolApprovalRules(rules);
            app.setSendOnEnter(sendOnEnter);
            settings.sync();
            QCOMPARE(settings.status(), QSettings::NoError);
        }
        QSettings settings(m_path, QSettings::IniFormat);
        const AppSettings app(&settings);
        QCOMPARE(app.agentConfig(), config);
        QCOMPARE(app.providerReadTimeoutMs(), readTimeoutMs);
        QCOMPARE(app.enabledTools(), enabledTools);
        QCOMPARE(app.workspaceFolder(), workspace);
        QCOMPARE(app.toolApprovalRules(), rules);
        QCOMPARE(app.sendOnEnter(), sendOnEnter);
    }

    void onlyTheLoopOptionsOfAnAgentConfigAreKept()
    {
        AgentConfig config;
        config.maxIterations = 7;
        config.name = u"not a setting"_s;
        config.tokenBudget = 1234;
        {
            QSettings settings(m_path, QSettings::IniFormat);
            AppSettings(&settings).setAgentConfig(config);
        }
        QSettings settings(m_path, QSettings::IniFormat);
        AgentConfig expected;
        expected.maxIterations = 7;
        QCOMPARE(AppSettings(&settings).agentConfig(), expected);
    }

    void theDefaultWorkspaceIsAFolderOfItsOwnNotTheHomeFolder()
    {
        const QString folder = AppSettings::defaultWorkspaceFolder();
        QVERIFY2(QDir::cleanPath(folder) != QDir::cleanPath(QDir::homePath()), qPrintable(folder));
        QCOMPARE(QFileInfo(folder).fileName(), u"Loopscope"_s);
        QVERIFY2(folder.startsWith(QDir::homePath() + u'/'), qPrintable(folder));
    }

    void choosingTheHomeFolderIsKeptAsAChoice()
    {
        {
            QSettings settings(m_path, QSettings::IniFormat);
            AppSettings app(&settings);
            app.setWorkspaceFolder(QDir::homePath());
        }
        QSettings settings(m_path, QSettings::IniFormat);
        const AppSettings app(&settings);
        QCOMPARE(app.workspaceFolder(), QDir::homePath());
        QVERIFY(app.workspaceChosen());
    }

    void valuesEqualToTheDefaultsAreNotWritten()
    {
        {
            QSettings settings(m_path, QSettings::IniFormat);
            AppSettings app(&settings);
            app.setAgentConfig(AgentConfig());
            app.setProviderReadTimeoutMs(ProviderEndpoint().readTimeoutMs);
            app.setEnabledTools(builtinToolNames());
            app.setWorkspaceFolder(AppSettings::defaultWorkspaceFolder());
            app.setSendOnEnter(false);
            app.setFetchAllowsPrivateAddresses(false);
        }
        QSettings settings(m_path, QSettings::IniFormat);
        QCOMPARE(settings.allKeys(), QStringList());
    }

    void fetchReachesPrivateAddressesOnlyOnceAllowed()
    {
        {
            QSettings settings(m_path, QSettings::IniFormat);
            AppSettings app(&settings);
            QCOMPARE(app.fetchAllowsPrivateAddresses(), false);
            app.setFetchAllowsPrivateAddresses(true);
        }
        QSettings settings(m_path, QSettings::IniFormat);
        QCOMPARE(AppSettings(&settings).fetchAllowsPrivateAddresses(), true);
    }

    void malformedValuesFallBackToTheDefaults_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("iterations not a number") << u"loop/maxIterations"_s << u"many"_s;
        QTest::newRow("iterations zero") << u"loop/maxIterations"_s << u"0"_s;
        QTest::newRow("parallel tools negative") << u"loop/maxParallelTools"_s << u"-2"_s;
        QTest::newRow("unknown post-loop mode") << u"loop/postLoop"_s << u"ponder"_s;
        QTest::newRow("tool timeout empty") << u"loop/toolTimeoutMs"_s << QString();
    }

    void malformedValuesFallBackToTheDefaults()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QSettings settings(m_path, QSettings::IniFormat);
        settings.setValue(key, value);
        QCOMPARE(AppSettings(&settings).agentConfig(), AgentConfig());
    }

    void aMistypedApprovalRuleIsIgnored()
    {
        QSettings settings(m_path, QSettings::IniFormat);
        settings.setValue(u"tools/approval/calculator"_s, u"sometimes"_s);
        settings.setValue(u"tools/approval/read_file"_s, u"never"_s);
        AppSettings app(&settings);
        QCOMPARE(app.toolApprovalRules(), (QHash<QString, QString>{{u"read_file"_s, u"never"_s}}));

        app.setToolApprovalRules(
            {{u"calculator"_s, u"perhaps"_s}, {u"a/b"_s, u"ask"_s}, {u"list_directory"_s, u"ask"_s}});
        QCOMPARE(app.toolApprovalRules(), (QHash<QString, QString>{{u"list_directory"_s, u"ask"_s}}));
    }

    void scopedApprovalsRoundTripBesideTheToolRules()
    {
        const QList<ScopedApproval> approvals{
            {u"write_file"_s, {ApprovalScope::Kind::Folder, u"/home/me/project/src"_s}},
            {u"run_command"_s, {ApprovalScope::Kind::CommandPrefix, u"git"_s}},
            {u"fetch_url"_s, {ApprovalScope::Kind::Host, u"docs.qt.io"_s}},
        };
        {
            QSettings settings(m_path, QSettings::IniFormat);
            AppSettings app(&settings);
            QCOMPARE(app.scopedApprovals(), QList<ScopedApproval>());
            app.setToolApprovalRules({{u"calculator"_s, u"never"_s}});
            app.setScopedApprovals(approvals);
        }
        QSettings settings(m_path, QSettings::IniFormat);
        AppSettings app(&settings);
        QCOMPARE(app.scopedApprovals(), approvals);
        QCOMPARE(app.toolApprovalRules(), (Rules{{u"calculator"_s, u"never"_s}})); // untouched, as before
        app.setScopedApprovals({});
        QCOMPARE(app.scopedApprovals(), QList<ScopedApproval>());
    }

    void aScopedApprovalThisVersionCannotReadIsLeftOut()
    {
        QSettings settings(m_path, QSettings::IniFormat);
        settings.beginWriteArray(u"tools/scopedApprovals"_s, 3);
        const QStringList scopes{u"branch"_s, u"tool"_s, u"host"_s};
        for (int i = 0; i < 3; ++i) {
            settings.setArrayIndex(i);
            settings.setValue(u"tool"_s, u"fetch_url"_s);
            settings.setValue(u"scope"_s, scopes.at(i));
            settings.setValue(u"value"_s, i == 2 ? u"example.com"_s : u"x"_s);
        }
        settings.endArray();
        // An unknown scope is not widened into the whole tool.
        QCOMPARE(AppSettings(&settings).scopedApprovals(),
                 (QList<ScopedApproval>{{u"fetch_url"_s, {ApprovalScope::Kind::Host, u"example.com"_s}}}));
    }

    void nothingSecretIsWritten()
    {
        // AppSettings has no field for a key; this guards against one creeping in.
        {
            QSettings settings(m_path, QSettings::IniFormat);
            AppSettings app(&settings);
            AgentConfig config;
            config.maxIterations = 4;
            config.systemPrompt = u"be brief"_s;
            app.setAgentConfig(config);
            app.setEnabledTools({u"calculator"_s});
            app.setToolApprovalRules({{u"calculator"_s, u"ask"_s}});
            app.setSendOnEnter(false);
        }
        const QByteArray ini = fileContents().toLower();
        QVERIFY(ini.contains("maxiterations"));
        for (const char *word : {"key", "token=", "secret", "password", "bearer"})
            QVERIFY2(!ini.contains(word), word);
    }
};

QTEST_GUILESS_MAIN(AppSettingsTest)
#include "tst_appsettings.moc"
