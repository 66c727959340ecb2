#pragma once

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QSplitter;
class QTreeView;
QT_END_NAMESPACE

namespace Loopscope {
class Trace;
class TraceModel;
}

namespace Loopscope::Ui {

/*!
    The window users live in: the conversation on one side, the trace of the
    agent's loop on the other. It only arranges panels; they receive their
    models from outside and hold no loop logic.
*/
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Trace *trace, QWidget *parent = nullptr);
    ~MainWindow() override;

    QSplitter *splitter() const { return m_splitter; }
    QTreeView *traceView() const { return m_traceView; }

private:
    QSplitter *m_splitter;
    QTreeView *m_traceView;
    TraceModel *m_traceModel;
};

} // namespace Loopscope::Ui
