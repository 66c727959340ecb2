#include "ui/trace/tracedetailspane.h"

#include "agent/providers/attachmentparts.h"
#include "agent/providers/recordedbody.h"
#include "agent/session/contextgauge.h"
#include "agent/trace/tracemodel.h"
#include "ui/trace/curlcommand.h"
#include "ui/trace/jsonhighlighter.h"
#include "ui/trace/jsontreeview.h"
#include "ui/trace/retrievalview.h"
#include "ui/trace/traceicons.h"

#include <QAction>
#include <QClipboard>
#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QStyle>
#include <QTabWidget>
#include <QTextBlock>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr int RefreshDelayMs = 16;
// Painting thousands of extra selections makes typing sluggish; the count stays exact.
constexpr int MaxHighlightedMatches = 2000;

// The payload with every recorded wire request whole (attempts refer to the call's request for
// their body) and masked once more.
QJsonObject redactedPayload(QJsonObject payload)
{
    if (!payload.contains(u"attempts"_s))
        return payload;
    const QString provider = payload.value(u"provider"_s).toString();
    const QJsonObject callRequest = payload.value(u"request"_s).toObject();
    QJsonArray attempts = payload.value(u"attempts"_s).toArray();
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        QJsonObject attempt = attempts.at(i).toObject();
        const QJsonObject request
            = RecordedBody::withBody(attempt.value(u"request"_s).toObject(), provider, callRequest);
        attempt.insert(u"request"_s, CurlCommand::redactedRequest(request));
        attempts.replace(i, attempt);
    }
    payload.insert(u"attempts"_s, attempts);
    return payload;
}

QString formatTime(qint64 us)
{
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(us / 1000);
    return QLocale().toString(time.time(), u"HH:mm:ss.zzz"_s);
}

QString formatDateTime(qint64 us)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(us / 1000), QLocale::LongFormat);
}

// What the provider was sent: the last attempt's wire body when the client recorded one, else the
// provider-neutral request the loop built (a call still waiting for its first attempt to end).
// Showing a step of megabytes builds and frees megabytes of JSON; glibc keeps
// freed heap for reuse unless asked to give it back.
void releaseFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

// Attachments read as what they are (name, type, size, sha256, scaled or not), not as their bytes:
// the Raw view and the curl command keep the body as it was sent.
QJsonValue requestShown(const QJsonObject &payload)
{
    const QJsonObject callRequest = payload.value(u"request"_s).toObject();
    const QJsonArray attempts = payload.value(u"attempts"_s).toArray();
    for (qsizetype i = attempts.size() - 1; i >= 0; --i) {
        const QJsonObject request = attempts.at(i).toObject().value(u"request"_s).toObject();
        const QJsonValue body = request.value(u"body"_s);
        if (!body.isUndefined())
            return AttachmentParts::described(body, callRequest, request.value(u"scaledImages"_s).toArray());
    }
    return AttachmentParts::described(payload.value(u"request"_s), callRequest, {});
}

// A tool's images (an MCP server's) read as what they are too, named by the call's attachments.
QJsonValue stepShown(const QJsonObject &step, const QJsonObject &payload)
{
    const QJsonArray files = payload.value(u"details"_s).toObject().value(u"attachments"_s).toArray();
    if (files.isEmpty())
        return step;
    const QJsonObject named{{u"messages"_s, QJsonArray{QJsonObject{{u"attachments"_s, files}}}}};
    return AttachmentParts::described(step, named, {});
}

QJsonValue responseShown(const QJsonObject &payload)
{
    QJsonObject response = payload.value(u"response"_s).toObject();
    const QString error = payload.value(u"error"_s).toString();
    if (!error.isEmpty())
        response.insert(u"error"_s, error);
    return response;
}

} // namespace

TraceDetailsPane::TraceDetailsPane(TraceModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_icon(new QLabel(this))
    , m_title(new QLabel(this))
    , m_status(new QLabel(this))
    , m_facts(new QLabel(this))
    , m_attempts(new QTreeWidget(this))
    , m_search(new QLineEdit(this))
    , m_matchLabel(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_requestView(new JsonTreeView(m_tabs))
    , m_responseView(new JsonTreeView(m_tabs))
    , m_stepView(new JsonTreeView(m_tabs))
    , m_shownView(new QPlainTextEdit(m_tabs))
    , m_passagesView(new RetrievalView(m_tabs))
    , m_text(new QPlainTextEdit(this))
    , m_showAll(new QPushButton(this))
    , m_highlighter(new JsonHighlighter(m_text->document()))
    , m_findNext(new QAction(tr("Next Match"), this))
    , m_findPrevious(new QAction(tr("Previous Match"), this))
    , m_copyJson(new QAction(tr("Copy as JSON"), this))
    , m_copyCurl(new QAction(tr("Copy as curl"), this))
{
    setAccessibleName(tr("Step details"));

    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_title->setAccessibleName(tr("Step"));
    m_status->setAccessibleName(tr("Status"));
    m_facts->setAccessibleName(tr("Timing and tokens"));
    m_facts->setWordWrap(true);
    m_facts->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_attempts->setAccessibleName(tr("Attempts"));
    m_attempts->setHeaderLabels({tr("Attempt"), tr("HTTP"), tr("Duration"), tr("Outcome")});
    m_attempts->setRootIsDecorated(false);
    m_attempts->setUniformRowHeights(true);
    m_attempts->setSelectionMode(QAbstractItemView::NoSelection);
    m_attempts->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_attempts->header()->setStretchLastSection(true);
    m_attempts->setVisible(false);

    m_search->setAccessibleName(tr("Search the details"));
    m_search->setPlaceholderText(tr("Search JSON"));
    m_search->setClearButtonEnabled(true);
    m_matchLabel->setAccessibleName(tr("Matches"));

    m_findNext->setIcon(style()->standardIcon(QStyle::SP_ArrowDown));
    m_findNext->setShortcuts(QKeySequence::FindNext);
    m_findNext->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_findPrevious->setIcon(style()->standardIcon(QStyle::SP_ArrowUp));
    m_findPrevious->setShortcuts(QKeySequence::FindPrevious);
    m_findPrevious->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addActions({m_findNext, m_findPrevious});
    auto *find = new QAction(tr("Find"), this);
    find->setShortcuts(QKeySequence::Find);
    find->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(find);
    connect(find, &QAction::triggered, m_search, [this] {
        m_rawChosen = true;
        m_tabs->setCurrentIndex(RawTab);
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });

    auto *previousButton = new QToolButton(this);
    previousButton->setDefaultAction(m_findPrevious);
    previousButton->setAccessibleName(m_findPrevious->text());
    auto *nextButton = new QToolButton(this);
    nextButton->setDefaultAction(m_findNext);
    nextButton->setAccessibleName(m_findNext->text());

    // The tabs' views scroll: a squeezed pane keeps its header and a few lines.
    for (QAbstractScrollArea *view :
         {static_cast<QAbstractScrollArea *>(m_requestView),
          static_cast<QAbstractScrollArea *>(m_responseView), static_cast<QAbstractScrollArea *>(m_stepView),
          static_cast<QAbstractScrollArea *>(m_text)})
        view->setMinimumHeight(3 * fontMetrics().lineSpacing());
    m_text->setAccessibleName(tr("Step as JSON"));
    m_text->setReadOnly(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(
        tr("Select a step in the trace to see its request, response, arguments or result."));

    m_copyJson->setToolTip(tr("Copy this step, as shown, to the clipboard"));
    m_copyCurl->setToolTip(tr("Copy a curl command that replays the last attempt of this model call "
                              "(credentials are masked)"));
    auto *copyJsonButton = new QToolButton(this);
    copyJsonButton->setDefaultAction(m_copyJson);
    copyJsonButton->setAccessibleName(m_copyJson->text());
    auto *copyCurlButton = new QToolButton(this);
    copyCurlButton->setDefaultAction(m_copyCurl);
    copyCurlButton->setAccessibleName(m_copyCurl->text());

    auto *titleRow = new QHBoxLayout;
    titleRow->addWidget(m_icon);
    titleRow->addWidget(m_title, 1);
    titleRow->addWidget(m_status);
    m_requestView->setAccessibleName(tr("Request as sent"));
    m_requestView->setToolTip(tr("The request body as it went to the provider, keys in the order sent"));
    m_responseView->setAccessibleName(tr("Response"));
    m_stepView->setAccessibleName(tr("Step"));
    m_tabs->setAccessibleName(tr("Views of the step"));
    m_tabs->setDocumentMode(true);
    auto *rawPage = new QWidget(m_tabs);
    m_tabs->insertTab(RequestTab, m_requestView, tr("Request"));
    m_tabs->insertTab(ResponseTab, m_responseView, tr("Response"));
    m_tabs->insertTab(StepTab, m_stepView, tr("Step"));
    m_tabs->insertTab(RawTab, rawPage, tr("Raw"));
    m_tabs->setTabToolTip(RawTab, tr("The whole step as JSON, with search"));
    m_shownView->setReadOnly(true);
    m_shownView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_shownView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_shownView->setAccessibleName(tr("What the approval showed"));
    m_tabs->insertTab(ShownTab, m_shownView, tr("Shown"));
    m_tabs->setTabToolTip(ShownTab, tr("What the approval showed when you decided: the diff, the command, "
                                       "the address"));
    m_tabs->insertTab(PassagesTab, m_passagesView, tr("Passages"));
    m_tabs->setTabToolTip(PassagesTab,
                          tr("The passages the search found, best first: click a file to open it"));
    connect(m_tabs, &QTabWidget::tabBarClicked, this, [this](int tab) { m_rawChosen = tab == RawTab; });

    m_showAll->setAccessibleName(tr("Show all of the JSON"));
    m_showAll->setToolTip(tr("Long steps show their beginning; this shows the whole text"));
    m_showAll->setVisible(false);
    connect(m_showAll, &QPushButton::clicked, this, &TraceDetailsPane::showAllRawText);

    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_matchLabel);
    searchRow->addWidget(previousButton);
    searchRow->addWidget(nextButton);
    // Beside the tabs rather than on a row of their own: the row is the request's and the response's.
    auto *copyButtons = new QWidget(m_tabs);
    auto *copyRow = new QHBoxLayout(copyButtons);
    copyRow->setContentsMargins(0, 0, 0, 0);
    copyRow->addWidget(copyJsonButton);
    copyRow->addWidget(copyCurlButton);
    copyJsonButton->setParent(copyButtons);
    copyCurlButton->setParent(copyButtons);
    copyJsonButton->setAutoRaise(true);
    copyCurlButton->setAutoRaise(true);
    m_tabs->setCornerWidget(copyButtons, Qt::TopRightCorner);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(titleRow);
    layout->addWidget(m_facts);
    layout->addWidget(m_attempts);
    layout->addWidget(m_tabs, 1);
    // Takes the room only while the tabs are hidden (no step): the title and what to do stay
    // together at the top instead of being spread over the pane.
    layout->addStretch(0);
    auto *rawLayout = new QVBoxLayout(rawPage);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    rawLayout->addLayout(searchRow);
    rawLayout->addWidget(m_text, 1);
    rawLayout->addWidget(m_showAll, 0, Qt::AlignLeft);

    connect(m_search, &QLineEdit::textChanged, this, &TraceDetailsPane::updateMatches);
    connect(m_search, &QLineEdit::returnPressed, this, &TraceDetailsPane::findNext);
    auto *backwards = new QShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Return), m_search);
    backwards->setContext(Qt::WidgetShortcut);
    connect(backwards, &QShortcut::activated, this, &TraceDetailsPane::findPrevious);
    connect(m_findNext, &QAction::triggered, this, &TraceDetailsPane::findNext);
    connect(m_findPrevious, &QAction::triggered, this, &TraceDetailsPane::findPrevious);
    connect(m_copyJson, &QAction::triggered, this, &TraceDetailsPane::copyJson);
    connect(m_copyCurl, &QAction::triggered, this, &TraceDetailsPane::copyCurl);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(RefreshDelayMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &TraceDetailsPane::refresh);
    if (model) {
        connect(model, &QAbstractItemModel::dataChanged, this, &TraceDetailsPane::onDataChanged);
        // Ids are reused after a reset: the node shown is gone.
        connect(model, &QAbstractItemModel::modelReset, this, [this] { setNode(-1); });
    }
    refresh();
}

void TraceDetailsPane::setNode(int nodeId)
{
    if (nodeId == m_node)
        return;
    m_node = nodeId;
    m_rawWhole = false;
    refresh();
    m_text->verticalScrollBar()->setValue(0);
    if (!m_matches.isEmpty())
        goToMatch(0);
}

void TraceDetailsPane::onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight)
{
    Q_UNUSED(bottomRight)
    // TraceModel reports a change one row at a time.
    if (m_node >= 0 && m_model && m_model->nodeId(topLeft) == m_node && !m_refreshTimer.isActive())
        m_refreshTimer.start();
}

void TraceDetailsPane::refresh()
{
    m_refreshTimer.stop();
    const QModelIndex index = m_model ? m_model->indexForNode(m_node) : QModelIndex();
    if (!index.isValid()) {
        m_node = -1;
        m_json.clear();
        m_jsonSize = 0;
        m_jsonHash = 0;
        m_curl.clear();
        m_icon->clear();
        m_title->setText(tr("No step selected"));
        m_status->clear();
        // Empty views under tabs would look like a step without data: say what to do instead.
        m_facts->setText(tr("Select a step in the trace to see its request, response, arguments or result."));
        m_tabs->setVisible(false);
        m_attempts->clear();
        m_attempts->setVisible(false);
        m_text->clear();
        m_showAll->setVisible(false);
        m_requestView->setJson(QJsonValue());
        m_responseView->setJson(QJsonValue());
        m_stepView->setJson(QJsonValue());
        showTabs(TraceKind::Turn, {}, {});
        m_copyJson->setEnabled(false);
        m_copyCurl->setEnabled(false);
        findMatches();
        return;
    }

    m_tabs->setVisible(true);
    const QJsonObject payload = redactedPayload(index.data(TraceModel::PayloadJsonRole).toJsonObject());
    const auto kind = TraceKind(index.data(TraceModel::KindRole).toInt());
    const QJsonObject step = stepObject(index, payload);
    const QString json = jsonOf(step);

    m_curl.clear();
    const QJsonArray attempts = payload.value(u"attempts"_s).toArray();
    if (kind == TraceKind::ModelCall && !attempts.isEmpty())
        m_curl = CurlCommand::fromRequest(attempts.last().toObject().value(u"request"_s).toObject());

    showHeader(index, payload);
    showAttempts(payload);
    showTabs(kind, step, payload);
    m_copyJson->setEnabled(true);
    m_copyCurl->setEnabled(!m_curl.isEmpty());

    const size_t hash = qHash(json);
    if (json.size() != m_jsonSize || hash != m_jsonHash) {
        // Keep the reader's place when a running step changes under them.
        const int scroll = m_text->verticalScrollBar()->value();
        m_jsonSize = json.size();
        m_jsonHash = hash;
        // A long text is made again when needed rather than kept twice.
        m_json = json.size() <= RawPreviewChars ? json : QString();
        showRawText(json);
        m_text->verticalScrollBar()->setValue(scroll);
        findMatches();
    }
    if (m_jsonSize > RawPreviewChars)
        releaseFreedMemory();
}

QJsonObject TraceDetailsPane::stepObject(const QModelIndex &index, const QJsonObject &payload) const
{
    const auto kind = TraceKind(index.data(TraceModel::KindRole).toInt());
    QJsonObject step{{u"id"_s, m_node},
                     {u"kind"_s, traceKindName(kind)},
                     {u"status"_s, traceStatusName(TraceStatus(index.data(TraceModel::StatusRole).toInt()))},
                     {u"label"_s, index.data(Qt::DisplayRole).toString()},
                     {u"startedUs"_s, index.data(TraceModel::StartedUsRole).toLongLong()},
                     {u"endedUs"_s, index.data(TraceModel::EndedUsRole).toLongLong()}};
    if (!payload.isEmpty())
        step.insert(u"data"_s, payload);
    return step;
}

QString TraceDetailsPane::jsonOf(const QJsonObject &step)
{
    return QString::fromUtf8(QJsonDocument(step).toJson(QJsonDocument::Indented));
}

QString TraceDetailsPane::jsonText() const
{
    if (m_jsonSize <= RawPreviewChars)
        return m_json;
    const QModelIndex index = m_model ? m_model->indexForNode(m_node) : QModelIndex();
    if (!index.isValid())
        return {};
    return jsonOf(stepObject(index, redactedPayload(index.data(TraceModel::PayloadJsonRole).toJsonObject())));
}

bool TraceDetailsPane::isRawTextShortened() const
{
    return !m_rawWhole && m_jsonSize > RawPreviewChars;
}

// A long text shows its beginning, cut at a line end; laying out and
// highlighting megabytes would take seconds and tens of megabytes.
void TraceDetailsPane::showRawText(const QString &json)
{
    if (!isRawTextShortened()) {
        m_text->setPlainText(json);
        m_showAll->setVisible(false);
        return;
    }
    const qsizetype lineEnd = json.lastIndexOf(u'\n', RawPreviewChars);
    m_text->setPlainText(json.left(lineEnd > 0 ? lineEnd : RawPreviewChars));
    m_showAll->setText(tr("Show all %L1 lines (%2)")
                           .arg(json.count(u'\n') + 1)
                           .arg(QLocale().formattedDataSize(json.size())));
    m_showAll->setVisible(true);
}

void TraceDetailsPane::showAllRawText()
{
    if (!isRawTextShortened())
        return;
    m_rawWhole = true;
    showRawText(jsonText());
    highlightMatches();
}

void TraceDetailsPane::showHeader(const QModelIndex &index, const QJsonObject &payload)
{
    const auto kind = TraceKind(index.data(TraceModel::KindRole).toInt());
    const auto status = TraceStatus(index.data(TraceModel::StatusRole).toInt());
    const int iconSide = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(TraceIcons::kindIcon(kind).pixmap(QSize(iconSide, iconSide), devicePixelRatioF()));
    m_icon->setToolTip(TraceModel::kindDisplayName(kind));
    m_title->setText(stepTitle(kind, index.data(Qt::DisplayRole).toString()));

    m_status->setText(TraceModel::statusDisplayName(status));
    QPalette statusPalette = m_status->palette();
    statusPalette.setColor(QPalette::WindowText, TraceIcons::statusColor(status, palette()));
    m_status->setPalette(statusPalette);

    QStringList facts;
    const qint64 startedUs = index.data(TraceModel::StartedUsRole).toLongLong();
    const qint64 endedUs = index.data(TraceModel::EndedUsRole).toLongLong();
    QStringList dates;
    if (startedUs > 0) {
        facts.append(tr("Started %1").arg(formatTime(startedUs)));
        dates.append(tr("Started %1").arg(formatDateTime(startedUs)));
    }
    const qint64 waitingUs = index.data(TraceModel::WaitingUsRole).toLongLong();
    if (endedUs <= 0)
        facts.append(tr("still running"));
    else if (waitingUs > 0 && kind != TraceKind::Wait)
        //: The details pane: a step's whole time, the machine's part, the part spent waiting for the user
        facts.append(tr("took %1 (%2 working, %3 waiting for you)")
                         .arg(TraceModel::formatSpan(endedUs - startedUs),
                              TraceModel::formatSpan(index.data(TraceModel::WorkingUsRole).toLongLong()),
                              TraceModel::formatSpan(waitingUs)));
    else
        facts.append(tr("took %1").arg(TraceModel::formatDuration(endedUs - startedUs)));
    if (endedUs > 0)
        dates.append(tr("Ended %1").arg(formatDateTime(endedUs)));
    m_facts->setToolTip(dates.join(u'\n'));
    QJsonObject usage = payload.value(u"usage"_s).toObject();
    if (usage.isEmpty())
        usage = payload.value(u"response"_s).toObject().value(u"usage"_s).toObject();
    const qint64 input = usage.value(u"input"_s).toInteger();
    const qint64 output = usage.value(u"output"_s).toInteger();
    if (input > 0 || output > 0) {
        const QLocale locale;
        facts.append(
            tr("%1 tokens (%2 in, %3 out)")
                .arg(locale.toString(input + output), locale.toString(input), locale.toString(output)));
    }
    const QString timing = index.data(TraceModel::TokenTimingRole).toString();
    if (!timing.isEmpty())
        facts.append(timing);
    if (const QString cost = index.siblingAtColumn(TraceModel::CostColumn).data().toString(); !cost.isEmpty())
        //: A step's cost in USD in the details pane, e.g. "cost $0.0123"; "—" when unknown
        facts.append(tr("cost %1").arg(cost));
    // How much of the model's context window the request filled: the window the loop fitted it
    // into, else (older traces) the one the price table knew.
    QJsonValue window
        = payload.value(u"request"_s).toObject().value(u"options"_s).toObject().value(u"contextWindow"_s);
    if (!window.isDouble())
        window = payload.value(u"cost"_s).toObject().value(u"basis"_s).toObject().value(u"contextWindow"_s);
    if (kind == TraceKind::ModelCall && input > 0 && window.isDouble())
        //: The request's tokens against the model's context window, e.g. "context 12.3k / 128k tokens"
        facts.append(tr("context %1").arg(ContextGauge::describe(input, window.toInteger())));
    if (kind == TraceKind::ModelCall) {
        if (const QString numCtx = numCtxFact(payload); !numCtx.isEmpty())
            facts.append(numCtx);
    }
    const QString toolName = index.data(TraceModel::ToolNameRole).toString();
    if (!toolName.isEmpty())
        facts.prepend(tr("Tool %1").arg(toolName));
    // Whose part of the turn this is: the turn's agent (of an agents file; the session's own agent
    // goes unnamed, as before), or the agent a handoff went on as.
    const bool presetTurn = kind == TraceKind::Turn && payload.contains(u"agentDefinition"_s);
    const bool agentPart
        = kind == TraceKind::Handoff && index.model()->rowCount(index.siblingAtColumn(0)) > 0;
    if (presetTurn || agentPart) {
        const QString agent
            = payload.value(kind == TraceKind::Turn ? u"agentName"_s : u"target"_s).toString();
        const QJsonValue version
            = payload.value(kind == TraceKind::Turn ? u"agentVersion"_s : u"targetVersion"_s);
        if (!agent.isEmpty())
            facts.prepend(
                version.isDouble()
                    //: The details pane: the agent whose part of the turn a step is, and its version
                    ? tr("Agent %1, version %2").arg(agent).arg(version.toInteger())
                    : tr("Agent %1").arg(agent));
    }
    if (kind == TraceKind::Wait)
        facts.append(decisionFact(payload));
    if (kind == TraceKind::Compaction) {
        const QLocale locale;
        //: The details pane: a compaction's estimated request size before and after, and the window
        facts.append(tr("about %1 → %2 tokens of a %3-token window")
                         .arg(locale.toString(payload.value(u"tokensBefore"_s).toInteger()),
                              locale.toString(payload.value(u"tokensAfter"_s).toInteger()),
                              locale.toString(payload.value(u"window"_s).toInteger())));
    }
    if (kind == TraceKind::Retrieval)
        facts.append(retrievalFact(payload));
    m_facts->setText(facts.join(u" · "_s));
}

// A label that already names its kind ("Compaction: 41,000 → 6,000 tokens", "Reflection") is
// the title as it is, not repeated after the kind.
QString TraceDetailsPane::stepTitle(TraceKind kind, const QString &label)
{
    const QString kindName = TraceModel::kindDisplayName(kind);
    if (label.isEmpty() || label == kindName)
        return kindName;
    if (label.startsWith(kindName + u':'))
        return label;
    //: The details pane's title: the kind of step, then its label
    return tr("%1: %2").arg(kindName, label);
}

// The window Ollama was told to keep (options.num_ctx in the body as sent): without it the server
// keeps its default and drops the start of a longer request without a word.
QString TraceDetailsPane::numCtxFact(const QJsonObject &payload)
{
    const QJsonArray attempts = payload.value(u"attempts"_s).toArray();
    for (qsizetype i = attempts.size() - 1; i >= 0; --i) {
        const QJsonValue body = attempts.at(i).toObject().value(u"request"_s).toObject().value(u"body"_s);
        if (!body.isObject())
            continue;
        const QJsonValue numCtx = body.toObject().value(u"options"_s).toObject().value(u"num_ctx"_s);
        if (!numCtx.isDouble())
            return {};
        //: The details pane: the context window sent to Ollama with a model call
        return tr("context window %1 tokens (num_ctx sent to Ollama)")
            .arg(QLocale().toString(numCtx.toInteger()));
    }
    return {};
}

// How a held call was decided, in words: "allowed always (command git), arguments edited".
QString TraceDetailsPane::decisionFact(const QJsonObject &payload)
{
    const QString decision = payload.value(u"decision"_s).toString();
    if (decision.isEmpty())
        return tr("waiting for a decision");
    const QString scope = payload.value(u"scope"_s).toString();
    // An MCP server's question is answered, not allowed.
    const bool question = payload.value(u"waitingFor"_s).toString() == u"answer";
    QString fact;
    if (decision == u"allowed")
        fact = scope == u"once"   ? tr("allowed once")
               : scope == u"tool" ? tr("allowed always")
               : !scope.isEmpty() ? tr("allowed always (%1)").arg(scope)
                                  : tr("allowed");
    else if (decision == u"denied")
        fact = tr("denied");
    else if (decision == u"manual result")
        fact = tr("you gave the result instead of running the tool");
    else if (decision == u"accepted")
        fact = tr("you answered the server's question");
    else if (decision == u"declined")
        fact = tr("you declined to answer the server's question");
    else if (decision == u"cancelled")
        fact = question ? tr("the server's question was cancelled unanswered")
                        : tr("cancelled before anyone decided");
    else
        fact = decision; // a word of a newer version's trace
    if (payload.value(u"argumentsEdited"_s).toBool())
        fact += tr(", arguments edited");
    return fact;
}

// What a retrieval searched and how long each part took: "knowledge bases notes, manual · searching
// 3.2 ms · embedding with nomic-embed-text 41.0 ms".
QString TraceDetailsPane::retrievalFact(const QJsonObject &payload)
{
    const RetrievalData retrieval = RetrievalData::fromJson(payload);
    QStringList facts;
    //: A retrieval in the details pane: the knowledge bases it searched
    facts.append(tr("knowledge bases %1").arg(retrieval.bases.join(u", "_s)));
    //: A retrieval in the details pane: the time spent searching the indexes
    facts.append(tr("searching %1").arg(TraceModel::formatDuration(retrieval.searchUs)));
    if (!retrieval.embeddingModel.isEmpty())
        //: A retrieval in the details pane: the embedding model and the time spent embedding the query
        facts.append(tr("embedding with %1 %2")
                         .arg(retrieval.embeddingModel, TraceModel::formatDuration(retrieval.embeddingUs)));
    return facts.join(u" · "_s);
}

void TraceDetailsPane::showTabs(TraceKind kind, const QJsonObject &step, const QJsonObject &payload)
{
    const bool modelCall = kind == TraceKind::ModelCall;
    const QString shown = kind == TraceKind::Wait ? payload.value(u"preview"_s).toString() : QString();
    m_tabs->setTabVisible(RequestTab, modelCall);
    m_tabs->setTabVisible(ResponseTab, modelCall);
    m_tabs->setTabVisible(StepTab, !modelCall);
    m_tabs->setTabVisible(ShownTab, !shown.isEmpty());
    const bool retrieval = kind == TraceKind::Retrieval;
    m_tabs->setTabVisible(PassagesTab, retrieval);
    if (retrieval)
        m_passagesView->setRetrieval(RetrievalData::fromJson(payload));
    if (m_shownView->toPlainText() != shown)
        m_shownView->setPlainText(shown);
    if (modelCall) {
        m_requestView->setJson(requestShown(payload));
        m_responseView->setJson(responseShown(payload));
        m_stepView->setJson(QJsonValue());
    } else {
        m_stepView->setJson(stepShown(step, payload));
        m_requestView->setJson(QJsonValue());
        m_responseView->setJson(QJsonValue());
    }
    // A reader who picked Raw keeps it from step to step; otherwise a new step opens on its first
    // tree. A running step that fills in stays on the tab the reader is reading.
    if (m_tabsNode != m_node || !m_tabs->isTabVisible(m_tabs->currentIndex()))
        m_tabs->setCurrentIndex(m_rawChosen        ? RawTab
                                : modelCall        ? RequestTab
                                : retrieval        ? PassagesTab
                                : !shown.isEmpty() ? ShownTab
                                                   : StepTab);
    m_tabsNode = m_node;
}

QSize TraceDetailsPane::minimumSizeHint() const
{
    QSize hint = QWidget::minimumSizeHint();
    int height = hint.height();
    // Room for a model call's attempts (one row, the rest scroll) and a title and facts of two
    // lines each, whether this step has them or not.
    const int line = fontMetrics().lineSpacing();
    if (m_attempts->isHidden()) {
        height += m_attempts->header()->sizeHint().height() + 2 * m_attempts->frameWidth() + line
                  + layout()->spacing();
    }
    height += std::max(0, 2 * line - m_title->minimumSizeHint().height())
              + std::max(0, 2 * line - m_facts->minimumSizeHint().height());
    m_steadyMinimumHeight = std::max(m_steadyMinimumHeight, height);
    hint.setHeight(m_steadyMinimumHeight);
    return hint;
}

void TraceDetailsPane::showAttempts(const QJsonObject &payload)
{
    m_attempts->clear();
    const QJsonArray attempts = payload.value(u"attempts"_s).toArray();
    for (const QJsonValue &value : attempts) {
        const QJsonObject attempt = value.toObject();
        const qint64 startedUs = attempt.value(u"startedUs"_s).toInteger();
        const qint64 endedUs = attempt.value(u"endedUs"_s).toInteger();
        const int httpStatus = attempt.value(u"httpStatus"_s).toInt();
        const QString error = attempt.value(u"error"_s).toString();
        const qint64 retryInMs = attempt.value(u"retryInMs"_s).toInteger(-1);
        QString outcome = error.isEmpty() ? tr("Succeeded") : error;
        if (retryInMs >= 0)
            outcome = tr("%1; retried after %2").arg(outcome, TraceModel::formatDuration(retryInMs * 1000));
        auto *item = new QTreeWidgetItem(m_attempts);
        item->setText(0, QLocale().toString(attempt.value(u"number"_s).toInt(1)));
        item->setText(1, httpStatus > 0 ? QString::number(httpStatus) : QString());
        item->setText(2, endedUs > 0 ? TraceModel::formatDuration(endedUs - startedUs) : QString());
        item->setText(3, outcome);
        item->setToolTip(3, outcome);
        if (!error.isEmpty())
            item->setForeground(3, TraceIcons::statusColor(TraceStatus::Error, palette()));
    }
    m_attempts->setVisible(!attempts.isEmpty());
    if (!attempts.isEmpty()) {
        // Tall enough for a few attempts; more scroll.
        const int rows = std::min(int(attempts.size()), 4);
        const int rowHeight = m_attempts->sizeHintForRow(0);
        // Squeezed (e.g. by the debugger) it shrinks to one row and scrolls.
        const int chrome = m_attempts->header()->sizeHint().height() + 2 * m_attempts->frameWidth();
        m_attempts->setMinimumHeight(chrome + rowHeight);
        m_attempts->setMaximumHeight(chrome + rows * rowHeight);
    }
}

void TraceDetailsPane::updateMatches()
{
    // The matches are in the Raw text: searching shows it.
    if (!m_search->text().isEmpty()) {
        m_rawChosen = true;
        m_tabs->setCurrentIndex(RawTab);
    }
    m_currentMatch = -1;
    findMatches();
    if (!m_matches.isEmpty())
        goToMatch(0);
}

void TraceDetailsPane::findMatches()
{
    m_matches.clear();
    const QString needle = m_search->text();
    if (!needle.isEmpty()) {
        const QString json = jsonText();
        for (qsizetype from = json.indexOf(needle, 0, Qt::CaseInsensitive); from >= 0;
             from = json.indexOf(needle, from + needle.size(), Qt::CaseInsensitive))
            m_matches.append(from);
    }
    // Stay on the same match when the text is refreshed under the reader, without scrolling.
    m_currentMatch = m_matches.isEmpty() ? -1 : std::clamp(m_currentMatch, 0, int(m_matches.size()) - 1);
    if (m_matches.isEmpty())
        m_matchLabel->setText(needle.isEmpty() ? QString() : tr("No matches"));
    else
        //: Search position, e.g. "2 of 7"
        m_matchLabel->setText(tr("%1 of %2").arg(m_currentMatch + 1).arg(m_matches.size()));
    m_findNext->setEnabled(!m_matches.isEmpty());
    m_findPrevious->setEnabled(!m_matches.isEmpty());
    highlightMatches();
}

void TraceDetailsPane::findNext()
{
    if (!m_matches.isEmpty())
        goToMatch((m_currentMatch + 1) % int(m_matches.size()));
}

void TraceDetailsPane::findPrevious()
{
    if (!m_matches.isEmpty())
        goToMatch((m_currentMatch - 1 + int(m_matches.size())) % int(m_matches.size()));
}

void TraceDetailsPane::goToMatch(int match)
{
    if (match < 0 || match >= m_matches.size())
        return;
    m_currentMatch = match;
    m_matchLabel->setText(tr("%1 of %2").arg(match + 1).arg(m_matches.size()));
    // A match past the shortened text: the reader wants to see it.
    if (m_matches.at(match) + m_search->text().size() >= m_text->document()->characterCount())
        showAllRawText();
    QTextCursor cursor(m_text->document());
    cursor.setPosition(int(m_matches.at(match)));
    m_text->setTextCursor(cursor);
    m_text->centerCursor();
    highlightMatches();
}

void TraceDetailsPane::highlightMatches()
{
    QList<QTextEdit::ExtraSelection> selections;
    const qsizetype length = m_search->text().size();
    QColor matchColor = palette().color(QPalette::Highlight);
    matchColor.setAlpha(80);
    const int count = std::min(int(m_matches.size()), MaxHighlightedMatches);
    const qsizetype shown = m_text->document()->characterCount() - 1;
    for (int i = 0; i < count; ++i) {
        if (i == m_currentMatch || m_matches.at(i) + length > shown)
            continue;
        QTextEdit::ExtraSelection selection;
        selection.cursor = QTextCursor(m_text->document());
        selection.cursor.setPosition(int(m_matches.at(i)));
        selection.cursor.setPosition(int(m_matches.at(i) + length), QTextCursor::KeepAnchor);
        selection.format.setBackground(matchColor);
        selections.append(selection);
    }
    // The current match last, so it paints over its neighbours.
    if (m_currentMatch >= 0 && m_matches.at(m_currentMatch) + length <= shown) {
        QTextEdit::ExtraSelection current;
        current.cursor = QTextCursor(m_text->document());
        current.cursor.setPosition(int(m_matches.at(m_currentMatch)));
        current.cursor.setPosition(int(m_matches.at(m_currentMatch) + length), QTextCursor::KeepAnchor);
        current.format.setBackground(palette().color(QPalette::Highlight));
        current.format.setForeground(palette().color(QPalette::HighlightedText));
        selections.append(current);
    }
    m_text->setExtraSelections(selections);
}

void TraceDetailsPane::copyJson()
{
    const QString json = jsonText();
    if (!json.isEmpty())
        QGuiApplication::clipboard()->setText(json);
}

void TraceDetailsPane::copyCurl()
{
    if (!m_curl.isEmpty())
        QGuiApplication::clipboard()->setText(m_curl);
}

void TraceDetailsPane::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // Status and match colours come from the palette.
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        m_highlighter->setPalette(palette());
        refresh();
        highlightMatches();
    }
}

} // namespace Loopscope::Ui
